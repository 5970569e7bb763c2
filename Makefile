# phototag: the two quick-start commands are `make run` and `make test`.
# Each installs what it needs first (libexif-dev and pkg-config; see Scripts/install-deps).

SWIFT ?= swift
PREFIX ?= /usr/local
PHOTO ?= Fixtures/photos/ne-little-endian.jpg

# The toolchain lives in /opt/swift on the project's Linux machines; use it when swift is not on PATH.
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build run test lint format clean

deps:
	@Scripts/install-deps

build: deps
	$(SWIFT) build -c release

run: build
	.build/release/phototag locate $(PHOTO)

test: deps
	$(SWIFT) test

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

clean:
	rm -rf .build
