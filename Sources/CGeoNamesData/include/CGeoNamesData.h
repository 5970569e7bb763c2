// The bundled place and names tables, compiled into the binary so that an installed phototag works alone.
#ifndef PHOTOTAG_CGEONAMESDATA_H
#define PHOTOTAG_CGEONAMESDATA_H

#include <stddef.h>

// The bytes of places.table (see PlaceTableLayout.swift), 64-byte aligned, never freed.
// A function, because Swift cannot import an array of unknown size.
const unsigned char *CGeoNamesData_table(void);

// The table's length in bytes.
size_t CGeoNamesData_tableSize(void);

// The bytes of names.table (see PlaceNamesLayout.swift), aligned and never freed alike.
const unsigned char *CGeoNamesData_namesTable(void);

// The names table's length in bytes.
size_t CGeoNamesData_namesTableSize(void);

#endif
