// The C surface of zlib that PhotoGPS uses: raw inflate and CRC-32, for the deflated entries of
// KMZ (ZIP) archives. zlib's own header, nothing else.
#ifndef PHOTOTAG_CZLIB_H
#define PHOTOTAG_CZLIB_H

#include <zlib.h>

#endif
