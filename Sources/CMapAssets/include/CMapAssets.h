// The HTML map's style sheet and script, compiled into the binary (no resource files to find).
#ifndef PHOTOTAG_CMAPASSETS_H
#define PHOTOTAG_CMAPASSETS_H

// The text of map.css, UTF-8 and NUL-terminated, never freed.
const char *CMapAssets_css(void);

// The text of map.js, UTF-8 and NUL-terminated, never freed.
const char *CMapAssets_js(void);

#endif
