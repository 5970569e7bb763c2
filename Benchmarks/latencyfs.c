/* A read-only FUSE passthrough with injected latency: the "network share" of `make bench`.
 *
 *   latencyfs SOURCE LATENCY_US MOUNTPOINT [FUSE OPTIONS...]
 *
 * Mounts the folder SOURCE at MOUNTPOINT, read-only, and sleeps LATENCY_US microseconds in every
 * open and every read request before answering it, the way a NAS or a network share answers
 * after a round trip. Everything else (lookups, attributes, directory listings) is answered at
 * once: the benchmark measures what a tool does with many opens and reads outstanding, not how
 * the kernel caches attributes. Requests are served by libfuse's thread pool (`-o
 * max_threads=N` sets its size), so many sleeping requests can be in flight at once, as on a
 * real share (the kernel's limit on outstanding read-ahead requests is raised to 128 too). The
 * kernel's page cache of a file is dropped whenever it is opened (keep_cache is
 * off), so every run pays the latency again.
 *
 * Build (Debian: libfuse3-dev): cc -O2 -o latencyfs latencyfs.c $(pkg-config --cflags --libs fuse3)
 * Unmount with `fusermount3 -u MOUNTPOINT` (or `umount MOUNTPOINT` as root). Benchmarks/bench.py
 * builds, mounts and unmounts it itself (its `fuse` section).
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int source;           /* the source folder, open */
static long latency_ns;      /* slept in every open and read */

/* Sleeps the injected latency (whole, even when interrupted by a signal). */
static void wait_latency(void) {
    struct timespec left = {latency_ns / 1000000000L, latency_ns % 1000000000L};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
}

/* The path FUSE gives ("/a/b") relative to the source folder ("a/b", or "." for the root). */
static const char *relative(const char *path) {
    while (*path == '/') path++;
    return *path ? path : ".";
}

static int fs_getattr(const char *path, struct stat *info, struct fuse_file_info *file) {
    if (file && file->fh) return fstat((int)file->fh, info) == 0 ? 0 : -errno;
    return fstatat(source, relative(path), info, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
}

static int fs_readlink(const char *path, char *buffer, size_t size) {
    ssize_t length = readlinkat(source, relative(path), buffer, size - 1);
    if (length < 0) return -errno;
    buffer[length] = 0;
    return 0;
}

static int fs_opendir(const char *path, struct fuse_file_info *file) {
    int fd = openat(source, relative(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -errno;
    DIR *dir = fdopendir(fd);
    if (!dir) {
        int error = errno;
        close(fd);
        return -error;
    }
    file->fh = (uint64_t)(uintptr_t)dir;
    return 0;
}

static int fs_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, off_t offset, struct fuse_file_info *file,
                      enum fuse_readdir_flags flags) {
    (void)path, (void)offset, (void)flags;
    DIR *dir = (DIR *)(uintptr_t)file->fh;
    rewinddir(dir);
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        struct stat info = {0};
        info.st_ino = entry->d_ino;
        info.st_mode = (mode_t)DTTOIF(entry->d_type);
        if (fill(buffer, entry->d_name, &info, 0, 0)) break;
    }
    return 0;
}

static int fs_releasedir(const char *path, struct fuse_file_info *file) {
    (void)path;
    closedir((DIR *)(uintptr_t)file->fh);
    return 0;
}

static int fs_open(const char *path, struct fuse_file_info *file) {
    if ((file->flags & O_ACCMODE) != O_RDONLY) return -EROFS;
    wait_latency();
    int fd = openat(source, relative(path), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    file->fh = (uint64_t)fd;
    file->keep_cache = 0;
    return 0;
}

static int fs_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *file) {
    (void)path;
    wait_latency();
    ssize_t done = pread((int)file->fh, buffer, size, offset);
    return done < 0 ? -errno : (int)done;
}

static int fs_release(const char *path, struct fuse_file_info *file) {
    (void)path;
    close((int)file->fh);
    return 0;
}

static int fs_statfs(const char *path, struct statvfs *info) {
    (void)path;
    return fstatvfs(source, info) == 0 ? 0 : -errno;
}

static void *fs_init(struct fuse_conn_info *connection, struct fuse_config *config) {
    /* The kernel sends read-ahead as background requests, at most 12 at once by default: let as
     * many be outstanding as the thread pool can answer. */
    connection->max_background = 128;
    connection->congestion_threshold = 96;
    config->use_ino = 1;
    config->nullpath_ok = 1;
    return NULL;
}

static const struct fuse_operations operations = {
    .init = fs_init,
    .getattr = fs_getattr,
    .readlink = fs_readlink,
    .opendir = fs_opendir,
    .readdir = fs_readdir,
    .releasedir = fs_releasedir,
    .open = fs_open,
    .read = fs_read,
    .release = fs_release,
    .statfs = fs_statfs,
};

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: latencyfs SOURCE LATENCY_US MOUNTPOINT [FUSE OPTIONS...]\n");
        return 64;
    }
    source = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (source < 0) {
        fprintf(stderr, "latencyfs: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    char *end;
    long microseconds = strtol(argv[2], &end, 10);
    if (*end || microseconds < 0 || microseconds > 10000000) {
        fprintf(stderr, "latencyfs: latency '%s' is not a number of microseconds (0-10000000)\n", argv[2]);
        return 64;
    }
    latency_ns = microseconds * 1000L;
    /* fuse_main sees: latencyfs MOUNTPOINT [OPTIONS...] -o ro */
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) return 1;
    int count = 0;
    args[count++] = argv[0];
    for (int i = 3; i < argc; i++) args[count++] = argv[i];
    args[count++] = "-o";
    args[count++] = "ro";
    return fuse_main(count, args, &operations, NULL);
}
