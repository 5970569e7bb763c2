/* The process timer of `make bench`: what GNU time does, without Python in between.
 *
 *   runner RUNS STDIN STDERR -- COMMAND [ARG...]
 *
 * Runs COMMAND RUNS times, one after the other, each a fresh fork + execvp with standard input
 * from the file STDIN ("-" for /dev/null), standard output to /dev/null and standard error
 * appended to the file STDERR ("-" for /dev/null). For each run prints one line:
 *
 *   <wall nanoseconds> <peak RSS KiB> <exit status>
 *
 * The wall time is CLOCK_MONOTONIC from just before fork to just after wait4; the peak RSS is
 * ru_maxrss from wait4, which is exactly what GNU time's %M prints (it also forks a small process
 * and reads wait3's rusage; it includes children the command waited for). A Python parent cannot
 * measure it itself: Linux carries the parent's RSS into the child's ru_maxrss across fork/vfork
 * + exec, so the numbers would include the benchmark script's own memory. Exit status is the
 * code, or 128 + signal.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 6 || strcmp(argv[4], "--") != 0) {
        fprintf(stderr, "usage: runner RUNS STDIN STDERR -- COMMAND [ARG...]\n");
        return 64;
    }
    int runs = atoi(argv[1]);
    const char *in = strcmp(argv[2], "-") == 0 ? "/dev/null" : argv[2];
    const char *err = strcmp(argv[3], "-") == 0 ? "/dev/null" : argv[3];
    char **command = argv + 5;
    for (int run = 0; run < runs; run++) {
        long long start = now_ns();
        pid_t pid = fork();
        if (pid < 0) {
            perror("runner: fork");
            return 1;
        }
        if (pid == 0) {
            int input = open(in, O_RDONLY);
            int output = open("/dev/null", O_WRONLY);
            int errors = open(err, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (input < 0 || output < 0 || errors < 0) _exit(126);
            dup2(input, 0);
            dup2(output, 1);
            dup2(errors, 2);
            execvp(command[0], command);
            _exit(127);
        }
        int status;
        struct rusage usage;
        if (wait4(pid, &status, 0, &usage) < 0) {
            perror("runner: wait4");
            return 1;
        }
        long long elapsed = now_ns() - start;
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        printf("%lld %ld %d\n", elapsed, usage.ru_maxrss, code);
        fflush(stdout);
    }
    return 0;
}
