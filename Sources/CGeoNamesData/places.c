// Embeds places.table and names.table, built by 'phototag places import' (see docs/places.md, "The place data", and CONTRIBUTING.md, "Rebuilding the tables").
#include "CGeoNamesData.h"

_Alignas(64) static const unsigned char table[] = {
#embed "places.table"
};

const unsigned char *CGeoNamesData_table(void) { return table; }

size_t CGeoNamesData_tableSize(void) { return sizeof(table); }

_Alignas(64) static const unsigned char namesTable[] = {
#embed "names.table"
};

const unsigned char *CGeoNamesData_namesTable(void) { return namesTable; }

size_t CGeoNamesData_namesTableSize(void) { return sizeof(namesTable); }
