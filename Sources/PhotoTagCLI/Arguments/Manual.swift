/// The man page and the shell completions, generated from the same command specifications as
/// the help text, so none of them can drift from what the parser accepts.
enum Manual {
    /// Every command a completion can name, with its spec.
    static var commands: [(name: String, spec: CommandSpec)] {
        Command.allCases.map { ($0.rawValue, $0.spec) }
    }

    /// phototag.1 in roff (man(7) macros).
    static func page() -> String {
        var page = """
            .TH PHOTOTAG 1 "" "phototag \(Help.toolVersion)" "User Commands"
            .SH NAME
            phototag \\- where was this photo taken? Read GPS tags and name the nearest place, offline
            .SH SYNOPSIS

            """
        for (_, spec) in commands {
            page += ".B \(escape(spec.usage))\n.br\n"
        }
        page += """
            .B phototag help
            [\\fIcommand\\fR...]
            .br
            .B phototag \\-V\\fR|\\fB\\-\\-version
            .SH DESCRIPTION
            phototag reads the GPS position recorded in photos (EXIF, through libexif), turns it into
            signed decimal degrees and names the nearest place from a GeoNames table compiled into the
            binary. It never uses the network.
            .PP
            Long options may be shortened to any unambiguous prefix, as in \\fB\\-\\-form\\fR for
            \\fB\\-\\-format\\fR; a name given in full always wins.
            .SH COMMANDS

            """
        for (_, spec) in commands {
            page += ".SS \(escape(spec.usage))\n\(escape(spec.summary)).\n"
            for option in spec.options {
                let names = ((option.short.map { [$0] } ?? []) + [option.name]).map { "\\fB\(escape($0))\\fR" }
                page += ".TP\n\(names.joined(separator: ", "))\(option.value.map { " \\fI\(escape($0))\\fR" } ?? "")\n"
                page += "\(escape(option.help)).\n"
            }
            if !spec.epilogue.isEmpty { page += ".PP\n" + epilogue(spec.epilogue) }
        }
        page += """
            .SH EXAMPLES
            Where one photo was taken, as text, then its place name with jq:
            .PP
            .nf
            .RS
            phototag locate IMG_0042.jpg
            phototag locate \\-\\-json IMG_0042.jpg | jq \\-r '.[0].place.name'
            .RE
            .fi
            .PP
            A whole library: the located photos as CSV for a spreadsheet, a map, and the counts per
            country and place alone:
            .PP
            .nf
            .RS
            phototag scan \\-\\-with\\-gps \\-\\-format csv \\-\\-bom ~/Pictures > located.csv
            phototag scan \\-\\-format html ~/Pictures/2019 > trip.html
            phototag scan \\-\\-json \\-\\-summary\\-file \\- \\-\\-warnings none ~/Pictures
            .RE
            .fi
            .PP
            The photos taken within 30 km of Berlin, and the new files since the last run:
            .PP
            .nf
            .RS
            phototag scan \\-\\-near 52.52,13.405 \\-\\-within 30 ~/Pictures
            find ~/Pictures \\-newer last\\-run \\-type f \\-print0 | phototag scan \\-\\-files\\-from \\- \\-0 \\-\\-json
            .RE
            .fi
            .PP
            Coordinates in, places out: one point, and a table whose other columns are passed through:
            .PP
            .nf
            .RS
            phototag geocode 48.8584,2.2945
            phototag geocode \\-\\-format csv < points.csv > places.csv
            .RE
            .fi
            .SH RECORDS
            One record per file (photo, video or sidecar) or per coordinate. A photo's JSON record has
            these keys, always all of them and in this order (CSV and GeoJSON have them flat, as
            \\fBplace_name\\fR, \\fBtime_local\\fR...):
            .TP
            .B file, sidecar, status
            The path as given; the XMP or Takeout sidecar read with it, or null; one of located,
            no\\-gps, invalid\\-gps, error.
            .TP
            .B gps
            latitude and longitude (signed decimal degrees, WGS 84), altitude (m), timestamp (UTC),
            direction, speed, horizontalError, datum, and source (exif, xmp, xmp\\-sidecar, takeout,
            quicktime\\-keys, track...); null when there is no usable position. With \\-\\-track, a
            track object follows when the track placed the photo (see TRACKS).
            .TP
            .B place
            The named place (geonameId, name, admin1, countryCode, country, timezone, population,
            distanceKm, bearing...), the city a person would name (city), and basis.
            .TP
            .B camera, time
            The camera's make, model and local clock (dateTimeOriginal, offsetTimeOriginal); the
            capture time as utc and local, with offsetSource (see CAPTURE TIME).
            .TP
            .B warnings, error
            What was wrong but did not stop the reading (a list); why the file could not be read.
            .PP
            The whole shape, for every format, is in docs/output.md, installed in share/doc/phototag.
            .SH WHERE A POINT IS
            The country, admin-1 region and time zone of a record are those of the boundary polygons
            (built into the binary) that contain the point; the named place is the nearest place inside
            that country, and place.city the city a person would name (the most populous place whose
            area of influence covers the point). At sea no country is given, the nearest place is
            named and a warning says so; basis is then "nearest", as with a place table of one's own
            (\\-\\-places).
            .SH NAMES IN THE READER'S LANGUAGE
            By default every name is GeoNames' own, so that scripts get the same output everywhere.
            With \\-\\-lang LANG (locate, scan and geocode) text names the place, city, region and
            country in LANG (M\\(:unchen, Bayern, Deutschland); JSON and NDJSON records gain
            place.names (lang, place, city, admin1, country), and CSV and GeoJSON the columns
            place_local_lang, place_name_local, place_city_name_local, place_admin1_local and
            place_country_local; GeoNames' own fields are unchanged. LANG is a BCP 47 tag or a
            locale: de, de\\-AT, de_AT.UTF\\-8, zh\\-Hant, zh\\-TW, pt\\-BR, sr\\-Latn; auto reads
            LC_ALL, LC_MESSAGES and LANG, in that order (C, POSIX or none: English). Each name falls
            back from the locale (de\\-AT) to its language (de), then to the GeoNames name: zh\\-TW
            tries zh\\-Hant\\-TW, zh\\-TW, zh\\-Hant, then zh. A region is named by GeoNames where it
            has the language, else by Unicode CLDR. About 24,000 larger places have names in other
            languages; smaller ones keep their GeoNames name.
            .SH CAPTURE TIME
            A camera's clock (DateTimeOriginal) has no time zone. time.utc is that clock less an
            offset found, in this order: the photo's own OffsetTimeOriginal (offsetSource exif), or
            the offset of the file's own time when it is not EXIF (quicktime for a video, xmp for an
            XMP sidecar, takeout for Google's photoTakenTime, which is UTC); else the difference to
            the GPS time, rounded to a quarter hour (gps); else the offset of the time zone that
            contains the point, at that wall\\-clock time, by the IANA tz rules built into the binary
            (timezone). time.local is time.utc on the clocks of the place. The computer's own time zone
            is never used.
            .SH TRACKS
            With \\-\\-track FILE (locate and scan; repeatable; a folder gives every track in it) a
            photo without a usable position of its own is placed where a GPS track or location
            history was at its capture time: GPX 1.0 and 1.1, KML and KMZ, NMEA 0183, IGC, Garmin FIT,
            CSV with a header, and Google location history (Records.json, Semantic Location History,
            the on\\-device Timeline export), each told by its content and read as a stream. Between
            two fixes at most \\-\\-max\\-gap seconds apart (1800) the position is interpolated
            linearly; otherwise the nearest fix at most \\-\\-max\\-extrapolation seconds away (1800)
            is taken, as ExifTool's \\-geotag does. gps.source is then track, and the record's track
            object says how (file, interpolated, gapSeconds, gapMeters, nearestPointSeconds); a
            photo placed on no fix says why in its warnings. The instant matched is the camera's
            clock less its offset: the photo's own (OffsetTimeOriginal, a video's UTC time, a
            sidecar's), else \\-\\-time\\-zone's, else the one the track gives: the zone of the
            track's position at the instant that clock stands for there (time.offsetSource track).
            The computer's own zone is never used. \\-\\-clock\\-offset corrects a camera clock that
            was off; \\-\\-sync\\-with PHOTO takes the camera's offset from UTC from a photo by the
            same camera that has a GPS time. A photo's own position wins (\\-\\-prefer\\-track:
            the track's), with a warning when they are more than 100 m apart. A track that cannot
            be read is an error on stderr (exit status 2) and the run goes on. The details are in
            docs/tracks.md, installed in share/doc/phototag.
            .SH OUTPUT
            Data goes to standard output, diagnostics to standard error. JSON records have fixed keys
            in a fixed order; absent values are null. The record shape is in docs/output.md, installed
            in share/doc/phototag.
            .SH EXIT STATUS
            0 success; 1 (locate) some file has no usable position, (geocode) some coordinate has no
            place; 2 some input could not be read (the others are still reported) or the output could
            not be written; 64 usage error; 130 or 143 stopped by SIGINT or SIGTERM (what was read is
            written whole and the output closed; a second signal ends at once).
            .SH ENVIRONMENT
            .TP
            .B NO_COLOR
            When set and not empty, text output is never coloured.
            .TP
            .B LC_ALL, LC_MESSAGES, LANG
            The language of \\-\\-lang auto (the first set and not empty); otherwise unused.
            .SH DATA
            Place data \\(co GeoNames (geonames.org), CC BY 4.0,
            https://creativecommons.org/licenses/by/4.0/.
            Time-zone boundaries: timezone-boundary-builder 2026e, data \\(co OpenStreetMap
            contributors, under the Open Database License 1.0
            (https://opendatacommons.org/licenses/odbl/1-0/); the boundary table is a derivative
            database offered under the same licence. Country and admin-1 geometry: Natural Earth
            (public domain); Puerto Rico's municipios: U.S. Census Bureau (public domain). Sea
            names and areas: Natural Earth 1:10m marine polygons (public domain). Names in other
            languages: GeoNames alternate names (CC BY 4.0); Unicode CLDR 41 subdivision names and
            CLDR 49 country names (through babel 2.19.0, BSD\\-3\\-Clause), \\(co Unicode, Inc., under
            the Unicode License (its notice is in NOTICE, installed in share/doc/phototag).
            Time-zone rules: the IANA tz database 2026f (public domain). EXIF reading: libexif,
            LGPL 2.1 or later (https://libexif.github.io/). KMZ inflating: zlib, zlib License
            (https://zlib.net/).

            """
        return page
    }

    /// A command's notes in roff: blank lines separate paragraphs, which roff fills; lines
    /// indented by two spaces (commands to type) are kept as they are, one per line.
    static func epilogue(_ text: String) -> String {
        var roff = ""
        var literal = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indented = line.hasPrefix("  ")
            if indented != literal {
                roff += indented ? ".nf\n" : ".fi\n"
                literal = indented
            }
            roff += line.isEmpty ? ".PP\n" : escape(String(line)) + "\n"
        }
        return roff + (literal ? ".fi\n" : "")
    }

    /// Escapes text for roff: backslashes, hyphens, characters beyond ASCII (as `\[uXXXX]`), and
    /// a leading dot or quote that would start a request.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
