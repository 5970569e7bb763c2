// The arena for libexif's allocations declared in include/CExifShim.h: one per thread, found
// through a _Thread_local pointer, and freed by a pthread key's destructor when its thread ends.
#include "CExifShim.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libexif/exif-mem.h>

typedef struct Arena {
    unsigned char *start;  // the arena's memory (NULL until first needed)
    size_t capacity;       // its size
    size_t used;           // bytes handed out since it was emptied
    size_t demand;         // bytes asked for since it was emptied (the arena's next size)
    unsigned live;         // ExifData of this arena not released yet
    ExifMem *mem;          // the ExifMem that allocates from it (made once per thread)
} Arena;

// Every piece handed out starts with this header: the owning arena (NULL for malloc's) and
// the size asked for (realloc copies that much).
typedef struct ArenaHeader {
    Arena *arena;
    size_t size;
} ArenaHeader;

enum { arenaAlignment = 16, arenaHeaderSize = 16, arenaInitialSize = 64 * 1024 };

// The calling thread's arena once made, where reading it is a load rather than a call
// (pthread_getspecific): libexif allocates for every entry and value it loads.
static _Thread_local Arena *current;

// The key whose destructor frees a thread's arena when the thread ends; made once.
static pthread_key_t arenaKey;
static pthread_once_t arenaKeyOnce = PTHREAD_ONCE_INIT;
static int arenaKeyStatus = -1;

static void destroyArena(void *raw) {
    Arena *arena = (Arena *)raw;
    current = NULL;  // the destructor runs on the thread that ends
    if (arena->mem) exif_mem_unref(arena->mem);
    free(arena->start);
    free(arena);
}

static void makeArenaKey(void) { arenaKeyStatus = pthread_key_create(&arenaKey, destroyArena); }

static void *arenaAlloc(ExifLong size) {
    Arena *arena = current;
    size_t need = arenaHeaderSize + (((size_t)size + arenaAlignment - 1) & ~(size_t)(arenaAlignment - 1));
    unsigned char *piece;
    ArenaHeader header = {NULL, (size_t)size};
    if (arena && arena->live > 0) {
        arena->demand += need;
        if (arena->start && need <= arena->capacity - arena->used) {
            piece = arena->start + arena->used;
            arena->used += need;
            header.arena = arena;
        } else {
            piece = (unsigned char *)malloc(need);
        }
    } else {
        piece = (unsigned char *)malloc(need);  // the ExifMem itself, made before any ExifData
    }
    if (!piece) return NULL;
    memcpy(piece, &header, sizeof header);
    memset(piece + arenaHeaderSize, 0, (size_t)size);  // libexif expects zeroed memory (calloc)
    return piece + arenaHeaderSize;
}

static void arenaFree(void *pointer) {
    if (!pointer) return;
    unsigned char *piece = (unsigned char *)pointer - arenaHeaderSize;
    ArenaHeader header;
    memcpy(&header, piece, sizeof header);
    if (!header.arena) free(piece);  // the arena's pieces go when it is emptied
}

static void *arenaRealloc(void *pointer, ExifLong size) {
    if (!pointer) return arenaAlloc(size);
    ArenaHeader header;
    memcpy(&header, (unsigned char *)pointer - arenaHeaderSize, sizeof header);
    if ((size_t)size <= header.size) return pointer;
    void *grown = arenaAlloc(size);
    if (!grown) return NULL;
    memcpy(grown, pointer, header.size);
    arenaFree(pointer);
    return grown;
}

// The calling thread's arena, made on first use; NULL when out of memory.
static Arena *threadArena(void) {
    Arena *arena = current;
    if (arena) return arena;
    (void)pthread_once(&arenaKeyOnce, makeArenaKey);
    if (arenaKeyStatus != 0) return NULL;
    arena = (Arena *)calloc(1, sizeof *arena);
    if (!arena) return NULL;
    if (pthread_setspecific(arenaKey, arena) != 0) {
        free(arena);
        return NULL;
    }
    current = arena;
    arena->mem = exif_mem_new(arenaAlloc, arenaRealloc, arenaFree);
    if (!arena->mem) return NULL;
    return arena;
}

ExifData *CExif_newArenaData(void) {
    Arena *arena = threadArena();
    if (!arena || !arena->mem) return NULL;
    arena->live++;
    ExifData *data = exif_data_new_mem(arena->mem);
    if (data == NULL) {
        arena->live--;
        return NULL;
    }
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    return data;
}

void CExif_releaseArenaData(ExifData *data) {
    exif_data_unref(data);
    Arena *arena = current;
    if (!arena || arena->live == 0 || --arena->live > 0) return;
    if (arena->demand > arena->capacity || !arena->start) {
        size_t capacity = arena->capacity ? arena->capacity : arenaInitialSize;
        while (capacity < arena->demand) capacity *= 2;
        unsigned char *start = (unsigned char *)malloc(capacity);
        if (start) {
            free(arena->start);
            arena->start = start;
            arena->capacity = capacity;
        }
    }
    arena->used = 0;
    arena->demand = 0;
}

size_t CExif_threadArenaCapacity(void) {
    Arena *arena = threadArena();
    return arena ? arena->capacity : 0;
}
