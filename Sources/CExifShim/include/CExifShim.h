// What PhotoGPS needs beside libexif's own headers (the CExif module): an allocator arena for
// libexif's allocations (shim.c), and accessors for what Swift cannot reach well in libexif's
// structures.
#ifndef PHOTOTAG_CEXIFSHIM_H
#define PHOTOTAG_CEXIFSHIM_H

#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-ifd.h>
#include <libexif/exif-format.h>
#include <libexif/exif-byte-order.h>
#include <libexif/exif-utils.h>

// ---- An arena for libexif's allocations ---------------------------------------------------------
//
// libexif allocates through an ExifMem: with the default one, a calloc for every entry it loads
// and for every entry's value and a free for each again. CExif_newArenaData gives it instead the
// calling thread's arena: one block of memory handed out front to back and emptied, all at once,
// when the last ExifData made from it is released with CExif_releaseArenaData. The arena starts at
// 64 KiB and grows (at the next emptying) to what a block needed, so that in the steady state
// loading an EXIF block allocates nothing. An ExifData of the arena must be released on the
// thread that made it (PhotoGPS's ExifBlock never crosses a thread). The arena is freed when its
// thread ends.

// A fresh ExifData that keeps every tag as stored (libexif's defaults drop tags it does not know
// and "repair" others, FOLLOW_SPECIFICATION, which would hide what the file really says),
// allocating from this thread's arena. Owned: release it with CExif_releaseArenaData on the
// same thread. NULL when out of memory.
ExifData *CExif_newArenaData(void);

// Releases an ExifData of CExif_newArenaData; the arena is emptied when it was the last one
// (and grown first when it was too small for what was asked of it).
void CExif_releaseArenaData(ExifData *data);

// How many bytes the calling thread's arena holds (0 before its first ExifData): tests.
size_t CExif_threadArenaCapacity(void);

// ---- Entries --------------------------------------------------------------------------------------

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
