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

#endif
