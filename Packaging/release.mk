# Release packages and the Spark examples; the Makefile includes this file.
# See docs/install.md ("Release packages") and docs/scale.md ("Apache Spark").

# PACKAGES is where the packages go; SOURCE_DATE_EPOCH (default: the commit's time) dates them.
PACKAGES ?= .build/packages
export PACKAGES

.PHONY: dist deb check-packages test-spark

# phototag-VERSION-linux-ARCH.tar.gz: the stripped static binary, man page, completions and
# notices, reproducible to the byte (Scripts/make-dist).
dist: deps ## Build the reproducible release tarball in .build/packages
	@Scripts/make-dist

# phototag_VERSION-1_ARCH.deb from the same files, with dpkg-deb (Scripts/make-deb).
deb: deps ## Build the Debian package in .build/packages
	@Scripts/make-deb

# CI: dist twice (here and in a fresh clone) and compared, the .deb installed, run, linted and
# removed, the Homebrew formula parsed (Scripts/check-packages; needs root for dpkg -i).
check-packages: deps ## Check the tarball, .deb and Homebrew formula (as root)
	Scripts/check-packages

# The Spark examples on local[2], compared record for record with phototag alone
# (Scripts/test-spark; installs Java and pyspark when missing).
test-spark: build ## Run the Spark examples against phototag alone
	Scripts/test-spark
