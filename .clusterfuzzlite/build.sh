#!/bin/bash -eu
# Builds shaderfarm's libFuzzer targets (fuzz/fuzz_targets/*.rs) and copies
# each, with its seed corpus as NAME_seed_corpus.zip, to $OUT: the build step
# of ClusterFuzzLite and OSS-Fuzz (their base-builder-rust image sets $SRC,
# $OUT and $SANITIZER and has cargo-fuzz and a nightly toolchain).
#
# Also runs by hand from a checkout: without $SANITIZER it builds on stable
# with `--sanitizer none` into ${OUT:-fuzz/out}.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$ROOT/fuzz/out}"
mkdir -p "$OUT"
cd "$ROOT/fuzz"

if [ -n "${SANITIZER:-}" ]; then
    # OSS-Fuzz style: the image's RUSTFLAGS and toolchain pick the sanitizer.
    cargo fuzz build -O --debug-assertions
else
    cargo fuzz build -O --debug-assertions --sanitizer none
fi

triple="$(rustc -vV | sed -n 's/^host: //p')"
for src in fuzz_targets/*.rs; do
    name="$(basename "$src" .rs)"
    cp "target/$triple/release/$name" "$OUT/$name"
    if [ -d "corpus/$name" ]; then
        rm -f "$OUT/${name}_seed_corpus.zip"
        zip -q -j "$OUT/${name}_seed_corpus.zip" corpus/"$name"/*
    fi
    echo "built $OUT/$name"
done
