# Homebrew formula for phototag, built from the release's source tarball.
#
# The project has no public home yet: homepage and url are placeholders of the usual form, and
# sha256 is to be set to the published tarball's when the release is tagged. The version is the
# url's; Scripts/check-packages checks that it is the binary's (`phototag --version`) and that the
# file parses (`ruby -c`). It cannot be installed here: that needs Homebrew and the tarball.
class Phototag < Formula
  desc "Where a photo was taken, named offline"
  homepage "https://github.com/phototag/phototag"
  url "https://github.com/phototag/phototag/archive/refs/tags/v0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license all_of: ["MIT", "CC-BY-4.0", "ODbL-1.0"]

  depends_on "pkgconf" => :build
  depends_on "libexif"

  uses_from_macos "swift" => :build

  def install
    system "swift", "build", "--disable-sandbox", "--configuration", "release",
           "--static-swift-stdlib", "--product", "phototag"
    bin.install ".build/release/phototag"
    (man1/"phototag.1").write Utils.safe_popen_read(bin/"phototag", "manpage")
    generate_completions_from_executable(bin/"phototag", "completions", shells: [:bash, :zsh, :fish])
  end

  test do
    assert_match "phototag #{version}", shell_output("#{bin}/phototag --version")
    assert_match "FR", shell_output("#{bin}/phototag geocode --format csv 48.8566,2.3522")
  end
end
