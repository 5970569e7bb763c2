/* The "read the first 64 KiB" floor of `make bench`.
 *
 *   floor [-b BYTES] PATH...
 *
 * For every regular file among PATHs, and under every folder among them (walked recursively, in
 * directory order, hidden entries included, symbolic links not followed), opens the file, reads
 * its first BYTES bytes (default 65536) into one buffer and closes it. Nothing is parsed. It is
 * the least any tool has to do to look at the head of each file: one process, one thread, no
 * output but a count. Prints "files N bytes M" on stdout; exits 2 when something could not be
 * read.
 *
 * Compiled by Benchmarks/bench.py with `cc -O2`, linked like any C program (dynamic libc), so its
 * start-up is that of a minimal C process.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *buffer;
static size_t limit = 65536;
static unsigned long long files, bytes;
static int failed;

static void read_head(int dirfd, const char *name) {
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        failed = 1;
        return;
    }
    size_t done = 0;
    while (done < limit) {
        ssize_t n = read(fd, buffer + done, limit - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            failed = 1;
            break;
        }
        if (n == 0) break;
        done += (size_t)n;
    }
    close(fd);
    files++;
    bytes += done;
}

static void walk(int dirfd) {
    DIR *dir = fdopendir(dirfd);
    if (!dir) {
        close(dirfd);
        failed = 1;
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        const char *name = entry->d_name;
        if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
        unsigned char type = entry->d_type;
        if (type == DT_UNKNOWN) {
            struct stat info;
            if (fstatat(dirfd, name, &info, AT_SYMLINK_NOFOLLOW) != 0) {
                failed = 1;
                continue;
            }
            type = S_ISDIR(info.st_mode) ? DT_DIR : S_ISREG(info.st_mode) ? DT_REG : DT_UNKNOWN;
        }
        if (type == DT_REG) {
            read_head(dirfd, name);
        } else if (type == DT_DIR) {
            int child = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (child < 0) {
                failed = 1;
                continue;
            }
            walk(child);
        }
    }
    closedir(dir);
}

int main(int argc, char **argv) {
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "-b") == 0) {
        limit = strtoull(argv[2], NULL, 10);
        first = 3;
    }
    if (first >= argc || limit == 0) {
        fprintf(stderr, "usage: floor [-b BYTES] PATH...\n");
        return 64;
    }
    buffer = malloc(limit);
    if (!buffer) return 1;
    for (int i = first; i < argc; i++) {
        struct stat info;
        if (stat(argv[i], &info) != 0) {
            failed = 1;
        } else if (S_ISDIR(info.st_mode)) {
            int fd = open(argv[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (fd < 0) failed = 1;
            else walk(fd);
        } else {
            read_head(AT_FDCWD, argv[i]);
        }
    }
    printf("files %llu bytes %llu\n", files, bytes);
    return failed ? 2 : 0;
}
