// The C surface of libexif that PhotoGPS uses: libexif's own headers, nothing else. The helpers
// PhotoGPS needs beside them (libexif's allocator arena, entry accessors) are in CExifShim.
#ifndef PHOTOTAG_CEXIF_H
#define PHOTOTAG_CEXIF_H

#include <libexif/exif-data.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-ifd.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-format.h>
#include <libexif/exif-byte-order.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-mem.h>

#endif
