// Embeds boundaries.table and seas.table, built by 'phototag boundaries import' (see docs/places.md, "Boundaries", and CONTRIBUTING.md, "Rebuilding the tables").
#include "CBoundaryData.h"

_Alignas(64) static const unsigned char table[] = {
#embed "boundaries.table"
};

const unsigned char *CBoundaryData_table(void) { return table; }

size_t CBoundaryData_tableSize(void) { return sizeof(table); }

_Alignas(64) static const unsigned char seaTable[] = {
#embed "seas.table"
};

const unsigned char *CBoundaryData_seaTable(void) { return seaTable; }

size_t CBoundaryData_seaTableSize(void) { return sizeof(seaTable); }
