// The bundled boundary and sea tables, compiled into the binary so that an installed phototag works alone.
#ifndef PHOTOTAG_CBOUNDARYDATA_H
#define PHOTOTAG_CBOUNDARYDATA_H

#include <stddef.h>

// The bytes of boundaries.table (see BoundaryTableLayout.swift), 64-byte aligned, never freed.
// A function, because Swift cannot import an array of unknown size.
const unsigned char *CBoundaryData_table(void);

// The table's length in bytes.
size_t CBoundaryData_tableSize(void);

// The bytes of seas.table (the same format, with only a sea layer), aligned and never freed alike.
const unsigned char *CBoundaryData_seaTable(void);

// The sea table's length in bytes.
size_t CBoundaryData_seaTableSize(void);

#endif
