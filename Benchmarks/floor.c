/* The "read the first 64 KiB" floor of `make bench`.
 *
 *   floor [-b BYTES] [-j THREADS] PATH...
 *
 * For every regular file among PATHs, and under every folder among them (walked recursively, in
 * directory order, hidden entries included, symbolic links not followed), opens the file, reads
 * its first BYTES bytes (default 65536) into a buffer and closes it. Nothing is parsed. It is
 * the least any tool has to do to look at the head of each file: one process, no output but a
 * count. Prints "files N bytes M" on stdout; exits 2 when something could not be read.
 *
 * With -j 1 (the default) one thread walks and reads, file after file: the single-threaded
 * floor. With -j N (N > 1) the main thread walks and hands the files' paths to N reader threads,
 * each with its own buffer, so that up to N opens and reads are in flight at once: the floor of
 * storage whose limit is the number of outstanding requests (a cold disk, a network share), not
 * the CPU.
 *
 * Compiled by Benchmarks/bench.py with `cc -O2 -pthread`, linked like any C program (dynamic
 * libc), so its start-up is that of a minimal C process.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t limit = 65536;
static unsigned long long files, bytes;
static int failed;

/* Reads the first `limit` bytes of `name` (relative to `dirfd`) into `buffer`; returns the bytes
 * read, or -1 when the file could not be opened or read. */
static long long read_head(int dirfd, const char *name, char *buffer) {
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t done = 0;
    int error = 0;
    while (done < limit) {
        ssize_t n = read(fd, buffer + done, limit - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            error = 1;
            break;
        }
        if (n == 0) break;
        done += (size_t)n;
    }
    close(fd);
    return error ? -1 : (long long)done;
}

/* ---- the reader threads (-j N > 1) ---------------------------------------------------------- */

static int threads = 1;
static char *single_buffer;

/* The paths the walk has found and the readers have not taken yet: a growing array, the walk
 * appending at `count`, the readers taking from `next`. */
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_ready = PTHREAD_COND_INITIALIZER;
static char **queue;
static size_t queue_count, queue_capacity, queue_next;
static int queue_closed;

static void *reader(void *unused) {
    (void)unused;
    char *buffer = malloc(limit);
    unsigned long long my_files = 0, my_bytes = 0;
    int my_failed = buffer == NULL;
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        while (queue_next == queue_count && !queue_closed) pthread_cond_wait(&queue_ready, &queue_lock);
        if (queue_next == queue_count) {
            pthread_mutex_unlock(&queue_lock);
            break;
        }
        char *path = queue[queue_next];
        queue[queue_next++] = NULL;
        pthread_mutex_unlock(&queue_lock);
        long long done = buffer ? read_head(AT_FDCWD, path, buffer) : -1;
        if (done < 0) my_failed = 1;
        else {
            my_files++;
            my_bytes += (unsigned long long)done;
        }
        free(path);
    }
    free(buffer);
    pthread_mutex_lock(&queue_lock);
    files += my_files;
    bytes += my_bytes;
    if (my_failed) failed = 1;
    pthread_mutex_unlock(&queue_lock);
    return NULL;
}

/* Hands one file to the readers (-j N), or reads it here (-j 1). `path` is the folder's path
 * (for the readers), `dirfd` the open folder (for the single thread). */
static void found_file(int dirfd, const char *folder, const char *name) {
    if (threads == 1) {
        long long done = read_head(dirfd, name, single_buffer);
        if (done < 0) failed = 1;
        else {
            files++;
            bytes += (unsigned long long)done;
        }
        return;
    }
    size_t length = strlen(folder) + strlen(name) + 2;
    char *path = malloc(length);
    if (!path) {
        failed = 1;
        return;
    }
    if (folder[0]) snprintf(path, length, "%s/%s", folder, name);
    else snprintf(path, length, "%s", name);
    pthread_mutex_lock(&queue_lock);
    if (queue_count == queue_capacity) {
        size_t capacity = queue_capacity ? queue_capacity * 2 : 4096;
        char **grown = realloc(queue, capacity * sizeof *queue);
        if (!grown) {
            pthread_mutex_unlock(&queue_lock);
            free(path);
            failed = 1;
            return;
        }
        queue = grown;
        queue_capacity = capacity;
    }
    queue[queue_count++] = path;
    pthread_cond_signal(&queue_ready);
    pthread_mutex_unlock(&queue_lock);
}

/* ---- the walk ------------------------------------------------------------------------------- */

static void walk(int dirfd, const char *folder) {
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
            found_file(dirfd, folder, name);
        } else if (type == DT_DIR) {
            int child = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (child < 0) {
                failed = 1;
                continue;
            }
            size_t length = strlen(folder) + strlen(name) + 2;
            char *path = malloc(length);
            if (!path) {
                close(child);
                failed = 1;
                continue;
            }
            snprintf(path, length, "%s/%s", folder, name);
            walk(child, path);
            free(path);
        }
    }
    closedir(dir);
}

int main(int argc, char **argv) {
    int first = 1;
    while (first + 1 < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "-b") == 0) limit = strtoull(argv[first + 1], NULL, 10);
        else if (strcmp(argv[first], "-j") == 0) threads = atoi(argv[first + 1]);
        else break;
        first += 2;
    }
    if (first >= argc || limit == 0 || threads < 1 || threads > 4096 || argv[first][0] == '-') {
        fprintf(stderr, "usage: floor [-b BYTES] [-j THREADS] PATH...\n");
        return 64;
    }
    pthread_t *readers = NULL;
    if (threads == 1) {
        single_buffer = malloc(limit);
        if (!single_buffer) return 1;
    } else {
        readers = calloc((size_t)threads, sizeof *readers);
        if (!readers) return 1;
        for (int i = 0; i < threads; i++) {
            if (pthread_create(&readers[i], NULL, reader, NULL) != 0) return 1;
        }
    }
    for (int i = first; i < argc; i++) {
        struct stat info;
        if (stat(argv[i], &info) != 0) {
            failed = 1;
        } else if (S_ISDIR(info.st_mode)) {
            int fd = open(argv[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (fd < 0) failed = 1;
            else walk(fd, argv[i]);
        } else {
            found_file(AT_FDCWD, "", argv[i]);
        }
    }
    if (threads > 1) {
        pthread_mutex_lock(&queue_lock);
        queue_closed = 1;
        pthread_cond_broadcast(&queue_ready);
        pthread_mutex_unlock(&queue_lock);
        for (int i = 0; i < threads; i++) pthread_join(readers[i], NULL);
    }
    printf("files %llu bytes %llu\n", files, bytes);
    return failed ? 2 : 0;
}
