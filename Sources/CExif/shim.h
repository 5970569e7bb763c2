// The C surface of libexif that PhotoGPS uses, plus the few helpers Swift cannot express well.
#ifndef PHOTOTAG_CEXIF_SHIM_H
#define PHOTOTAG_CEXIF_SHIM_H

#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-ifd.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-format.h>
#include <libexif/exif-byte-order.h>
#include <libexif/exif-utils.h>

// A fresh ExifData that keeps every tag as stored: libexif's defaults drop tags it does not know
// and "repair" others (FOLLOW_SPECIFICATION), which would hide what the file really says. Owned.
static inline ExifData *CExif_newVerbatimData(void) {
    ExifData *data = exif_data_new();
    if (data == NULL) return NULL;
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    return data;
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
