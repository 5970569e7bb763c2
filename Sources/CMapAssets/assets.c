// Embeds the HTML map's style sheet and script, map.css and map.js, as NUL-terminated text (see
// HTMLMap.swift). They are files of their own so that they can be read and checked as CSS and
// JavaScript; PhotoTagMapTests checks that what is embedded is what the files hold.
#include "CMapAssets.h"

static const char css[] = {
#embed "map.css"
    , 0};

static const char js[] = {
#embed "map.js"
    , 0};

const char *CMapAssets_css(void) { return css; }

const char *CMapAssets_js(void) { return js; }
