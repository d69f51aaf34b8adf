# Sourced (with SRC set to the source root) by build-fuzzers.sh, run-fuzz.sh and explore.sh:
# which fuzz targets there are, and where each one's source and seed corpus live.
#
# Two kinds: the targets of shared parsers (tests/fuzz/fuzz_NAME.cpp, corpus/NAME), and one per
# provider folder of core/providers/ProviderList.cmake that has fuzz/fuzz.cpp, named after the
# folder's first provider id, its seeds in that folder's fuzz/corpus and its parsers (the
# folder's *Parsers.cpp) compiled into the fuzz archive. A new provider's fuzzer is its folder.

FUZZ_SHARED_TARGETS="terminalscreen httpparser dockerstream agentframes connectenvelope tarextract catalogoverride grpcwire"

# "id folder" per provider folder with a fuzzer, folder relative to core/.
fuzz_provider_folders() {
  sed -n 's/^ *"\([a-z0-9-]*\)|\(providers\/[^|]*\)\/[^/|]*|.*/\1 \2/p' "$SRC/core/providers/ProviderList.cmake" |
    awk '!seen[$2]++' |
    while read -r id dir; do
      if [ -f "$SRC/core/$dir/fuzz/fuzz.cpp" ]; then echo "$id $dir"; fi
    done
}

fuzz_targets() {
  echo $FUZZ_SHARED_TARGETS $(fuzz_provider_folders | cut -d' ' -f1)
}

# The folder (relative to core/) of a provider target; empty for a shared one.
fuzz_provider_dir() {
  fuzz_provider_folders | awk -v t="$1" '$1 == t { print $2 }'
}

fuzz_source() {
  d=$(fuzz_provider_dir "$1")
  if [ -n "$d" ]; then echo "$SRC/core/$d/fuzz/fuzz.cpp"; else echo "$SRC/tests/fuzz/fuzz_$1.cpp"; fi
}

fuzz_corpus() {
  d=$(fuzz_provider_dir "$1")
  if [ -n "$d" ]; then echo "$SRC/core/$d/fuzz/corpus"; else echo "$SRC/tests/fuzz/corpus/$1"; fi
}
