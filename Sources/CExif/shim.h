// The C surface of libexif that PhotoGPS uses, plus the few helpers Swift cannot express well.
#ifndef PHOTOTAG_CEXIF_SHIM_H
#define PHOTOTAG_CEXIF_SHIM_H

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <libexif/exif-data.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-ifd.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-format.h>
#include <libexif/exif-byte-order.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-mem.h>

// ---- An arena for libexif's allocations --------------------------------------------------
//
// libexif allocates through an ExifMem: with the default one, a calloc for every entry it loads
// and for every entry's value (about 60 for a camera's EXIF block) and a free for each again.
// CExif_newArenaData gives it instead the calling thread's arena: one block of memory handed out
// front to back and emptied, all at once, when the last ExifData made from it is released with
// CExif_releaseArenaData. The arena starts at 64 KiB and grows (at the next emptying) to what a
// block needed, so that in the steady state loading an EXIF block allocates nothing. An ExifData
// of the arena must be released on the thread that made it (PhotoGPS's ExifBlock never crosses
// a thread). Memory handed out past the arena's end comes from malloc and goes back to free.

typedef struct CExif_Arena {
    unsigned char *start;  // the arena's memory (NULL until first needed)
    size_t capacity;       // its size
    size_t used;           // bytes handed out since it was emptied
    size_t demand;         // bytes asked for since it was emptied (the arena's next size)
    unsigned live;         // ExifData of this arena not released yet
    ExifMem *mem;          // the ExifMem that allocates from it (made once per thread)
} CExif_Arena;

// Every piece handed out starts with this header: the owning arena (NULL for malloc's) and
// the size asked for (realloc copies that much).
typedef struct CExif_ArenaHeader {
    CExif_Arena *arena;
    size_t size;
} CExif_ArenaHeader;

enum { CExif_arenaAlignment = 16, CExif_arenaHeaderSize = 16, CExif_arenaInitialSize = 64 * 1024 };

// The calling thread's arena once made: the key's value, kept where reading it is a load rather
// than a call (libexif allocates ~60 times a block, and pthread_getspecific was ~1,000
// instructions of it). The key stays, for its destructor at thread exit.
static inline CExif_Arena **CExif_currentArenaSlot(void) {
    static _Thread_local CExif_Arena *current;
    return &current;
}

static void CExif_destroyArena(void *raw) {
    CExif_Arena *arena = (CExif_Arena *)raw;
    *CExif_currentArenaSlot() = NULL;  // the destructor runs on the thread that ends
    if (arena->mem) exif_mem_unref(arena->mem);
    free(arena->start);
    free(arena);
}

// The key of the threads' arenas. (Statics inside functions: Swift emits the header's functions
// that it calls, with their local statics, but not the header's own global variables.)
static inline pthread_key_t *CExif_arenaKeyStorage(void) {
    static pthread_key_t key;
    return &key;
}

static void CExif_makeArenaKey(void) { (void)pthread_key_create(CExif_arenaKeyStorage(), CExif_destroyArena); }

// The key, made once by the first thread that asks.
static inline pthread_key_t CExif_arenaKey(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    (void)pthread_once(&once, CExif_makeArenaKey);
    return *CExif_arenaKeyStorage();
}

static void *CExif_arenaAlloc(ExifLong size) {
    CExif_Arena *arena = *CExif_currentArenaSlot();
    size_t need = CExif_arenaHeaderSize + (((size_t)size + CExif_arenaAlignment - 1) & ~(size_t)(CExif_arenaAlignment - 1));
    unsigned char *piece;
    CExif_ArenaHeader header = {NULL, (size_t)size};
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
    memset(piece + CExif_arenaHeaderSize, 0, (size_t)size);  // libexif expects zeroed memory (calloc)
    return piece + CExif_arenaHeaderSize;
}

static void CExif_arenaFree(void *pointer) {
    if (!pointer) return;
    unsigned char *piece = (unsigned char *)pointer - CExif_arenaHeaderSize;
    CExif_ArenaHeader header;
    memcpy(&header, piece, sizeof header);
    if (!header.arena) free(piece);  // the arena's pieces go when it is emptied
}

static void *CExif_arenaRealloc(void *pointer, ExifLong size) {
    if (!pointer) return CExif_arenaAlloc(size);
    CExif_ArenaHeader header;
    memcpy(&header, (unsigned char *)pointer - CExif_arenaHeaderSize, sizeof header);
    if ((size_t)size <= header.size) return pointer;
    void *grown = CExif_arenaAlloc(size);
    if (!grown) return NULL;
    memcpy(grown, pointer, header.size);
    CExif_arenaFree(pointer);
    return grown;
}

// The calling thread's arena, made on first use; NULL when out of memory.
static inline CExif_Arena *CExif_threadArena(void) {
    CExif_Arena *arena = *CExif_currentArenaSlot();
    if (arena) return arena;
    arena = (CExif_Arena *)calloc(1, sizeof *arena);
    if (!arena) return NULL;
    if (pthread_setspecific(CExif_arenaKey(), arena) != 0) {
        free(arena);
        return NULL;
    }
    *CExif_currentArenaSlot() = arena;
    arena->mem = exif_mem_new(CExif_arenaAlloc, CExif_arenaRealloc, CExif_arenaFree);
    if (!arena->mem) return NULL;
    return arena;
}

// A fresh ExifData that keeps every tag as stored (libexif's defaults drop tags it does not know
// and "repair" others, FOLLOW_SPECIFICATION, which would hide what the file really says),
// allocating from this thread's arena. Owned: release it with CExif_releaseArenaData on the
// same thread. NULL when out of memory.
static inline ExifData *CExif_newArenaData(void) {
    CExif_Arena *arena = CExif_threadArena();
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

// Releases an ExifData of CExif_newArenaData; the arena is emptied when it was the last one
// (and grown first when it was too small for what was asked of it).
static inline void CExif_releaseArenaData(ExifData *data) {
    exif_data_unref(data);
    CExif_Arena *arena = *CExif_currentArenaSlot();
    if (!arena || arena->live == 0 || --arena->live > 0) return;
    if (arena->demand > arena->capacity || !arena->start) {
        size_t capacity = arena->capacity ? arena->capacity : CExif_arenaInitialSize;
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

// How many bytes the calling thread's arena holds (0 before its first ExifData): tests.
//
// The arena functions keep their state in function-local statics of these static inline
// functions, of which every object file that calls them gets its own copy: call them from one
// Swift file only (ExifBlock.swift), or two files would see two sets of arenas.
static inline size_t CExif_threadArenaCapacity(void) {
    CExif_Arena *arena = CExif_threadArena();
    return arena ? arena->capacity : 0;
}


// ExifData.ifd is a C array (a tuple in Swift): index it here. Borrowed: do not unref.
static inline ExifContent *CExif_content(ExifData *data, ExifIfd ifd) { return data->ifd[ifd]; }

// ExifContent.entries is an array of pointers: index it here. Borrowed: do not unref.
static inline ExifEntry *CExif_entryAt(ExifContent *content, unsigned int index) {
    return index < content->count ? content->entries[index] : NULL;
}

// libexif stores entry.components as unsigned long, whose width differs between platforms.
static inline size_t CExif_componentCount(const ExifEntry *entry) { return (size_t)entry->components; }

// How many components of an entry libexif holds data for: its component count, but never more
// than its data has room for (an entry's size can disagree with its count in a damaged block).
static inline size_t CExif_readableComponents(const ExifEntry *entry) {
    size_t width = exif_format_get_size(entry->format);
    if (entry->data == NULL || width == 0) return 0;
    size_t fit = entry->size / width;
    return (size_t)entry->components < fit ? (size_t)entry->components : fit;
}

// Component `index` of an entry, decoded by libexif's own accessors in the block's byte order
// (exif_data_get_byte_order). The caller keeps index < CExif_readableComponents(entry) and
// asks for the entry's own format.
static inline ExifShort CExif_short(const ExifEntry *entry, size_t index, ExifByteOrder order) {
    return exif_get_short(entry->data + 2 * index, order);
}
static inline ExifSShort CExif_sshort(const ExifEntry *entry, size_t index, ExifByteOrder order) {
    return exif_get_sshort(entry->data + 2 * index, order);
}
static inline ExifLong CExif_long(const ExifEntry *entry, size_t index, ExifByteOrder order) {
    return exif_get_long(entry->data + 4 * index, order);
}
static inline ExifSLong CExif_slong(const ExifEntry *entry, size_t index, ExifByteOrder order) {
    return exif_get_slong(entry->data + 4 * index, order);
}
static inline ExifRational CExif_rational(const ExifEntry *entry, size_t index, ExifByteOrder order) {
    return exif_get_rational(entry->data + 8 * index, order);
}
static inline ExifSRational CExif_srational(const ExifEntry *entry, size_t index, ExifByteOrder order) {
    return exif_get_srational(entry->data + 8 * index, order);
}

#endif
