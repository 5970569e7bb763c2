# phototag: the two quick-start commands are `make run` and `make test`.
# Each installs what it needs first (libexif-dev and pkg-config; see Scripts/install-deps).

SWIFT ?= swift
PREFIX ?= /usr/local
PHOTO ?= Fixtures/photos/ne-little-endian.jpg

# The toolchain lives in /opt/swift on the project's Linux machines; use it when swift is not on PATH.
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build run test lint format clean bench places

deps:
	@Scripts/install-deps

# The release binary as installed: Swift's runtime linked statically (a process starts in a few
# milliseconds instead of ~15), the place table compiled in.
build: deps
	$(SWIFT) build -c release --static-swift-stdlib --product phototag

run: build
	.build/release/phototag locate $(PHOTO)

test: deps
	$(SWIFT) test

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Benchmarks

bench: build
	$(SWIFT) build -c release --product place-queries
	python3 Benchmarks/bench.py

# Rebuild the bundled place table from the GeoNames dumps beside the repository.
GEONAMES ?= ../shared/geonames
GEONAMES_DATE ?= 2026-07-28
places: build
	.build/release/phototag places import --from $(GEONAMES) --output Sources/CGeoNamesData/places.table --date $(GEONAMES_DATE)
	touch Sources/CGeoNamesData/places.c

clean:
	rm -rf .build
