# Sourced by Scripts/docs and Scripts/api: builds the library products PhotoGPS and ReverseGeocoding
# (debug, the build `swift build` and `swift test` share) and sets what the toolchain's module
# readers (swift-symbolgraph-extract, swift-api-digester) need to load them:
#   toolchain_bin   the toolchain's bin folder (Scripts/toolchain)
#   triple          the target triple
#   search_paths    -I flags: the Swift modules, the C modules' module maps, libexif's and zlib's headers
#   library_modules PhotoGPS ReverseGeocoding

library_modules=(PhotoGPS ReverseGeocoding)
toolchain_bin=$(Scripts/toolchain)
triple=$(Scripts/toolchain --triple)
swift=${SWIFT:-swift}

# Builds the library targets, quietly unless the build fails.
build_library_modules() {
    mkdir -p .build
    local module
    for module in "${library_modules[@]}"; do
        if ! "$swift" build --target "$module" >.build/library-modules.log 2>&1; then
            cat .build/library-modules.log >&2
            echo "the build of $module failed" >&2
            return 1
        fi
    done
    local bin
    bin=$("$swift" build --show-bin-path)
    # SwiftPM writes the module maps of the C targets (CGeoNamesData, CBoundaryData, CExifShim)
    # into their build folders; CExif's and CZlib's are in the source tree.
    search_paths=(-I "$bin/Modules" -I "$bin/CGeoNamesData.build" -I "$bin/CBoundaryData.build")
    search_paths+=(-I "$bin/CExifShim.build" -I Sources/CExif -I Sources/CZlib)
    local flag
    for flag in $(pkg-config --cflags-only-I libexif zlib 2>/dev/null); do search_paths+=(-I "${flag#-I}"); done
    if command -v xcrun >/dev/null 2>&1; then search_paths+=(-sdk "$(xcrun --show-sdk-path)"); fi
}
