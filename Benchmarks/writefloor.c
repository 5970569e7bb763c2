// The floor of writing sidecars safely (make bench, section tag): for each path on standard
// input, the least that phototag tag's safe write does, in C, one thread: a temporary file made
// beside it (O_CREAT|O_EXCL), 1,500 bytes written, fsync(2), renamed to the path, the folder
// opened and fsync'd. What tag costs beyond scan is compared with this.
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    static char line[8192], temporary[8300], folder[8192];
    static char bytes[1500];
    memset(bytes, ' ', sizeof bytes);
    long count = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (!*line) continue;
        snprintf(temporary, sizeof temporary, "%s.floor-%ld.tmp", line, count);
        int file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (file < 0 || write(file, bytes, sizeof bytes) != sizeof bytes || fsync(file) != 0 || close(file) != 0 ||
            rename(temporary, line) != 0) {
            perror(line);
            return 1;
        }
        strcpy(folder, line);
        int directory = open(dirname(folder), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (directory < 0 || fsync(directory) != 0) {
            perror(folder);
            return 1;
        }
        close(directory);
        count++;
    }
    printf("%ld\n", count);
    return 0;
}
