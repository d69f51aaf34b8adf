#!/usr/bin/env bash
# Every QObject::connect must name a context object: Qt 6.4 ignores
# QT_NO_CONTEXTLESS_CONNECT, so this check stands in for the compiler. It flags
# connect(sender, signal, functor) - the three-argument form - and string-based
# SIGNAL()/SLOT() connects, in every C++ file of the project.
set -euo pipefail
cd "$(dirname "$0")/.."
# app/askpass has no Qt: its connect() is the socket call.
files=$(git ls-files -co --exclude-standard -- '*.cpp' '*.h' | grep -v -e '^build' -e '^app/askpass/' || true)
[ -n "$files" ] || exit 0
# shellcheck disable=SC2086
perl -0777 -ne '
  my $src = $_;
  $src =~ s{//[^\n]*}{}g;                    # line comments
  $src =~ s{/\*.*?\*/}{}gs;                  # block comments
  while ($src =~ /(?<![A-Za-z0-9_])connect\s*\(/g) {
    my $start = pos($src);
    my ($depth, $args, $i) = (1, 1, $start);
    my $instr = "";
    for (; $i < length($src) && $depth > 0; $i++) {
      my $c = substr($src, $i, 1);
      if ($instr) { if ($c eq "\\") { $i++; next; } $instr = "" if $c eq $instr; next; }
      if ($c eq "\"" || $c eq "\x27") { $instr = $c; next; }
      if ($c =~ /[\(\[\{]/) { $depth++; }
      elsif ($c =~ /[\)\]\}]/) { $depth--; }
      elsif ($c eq "," && $depth == 1) { $args++; }
    }
    my $text = substr($src, $start, $i - $start);
    my $line = 1 + (() = substr($src, 0, $start) =~ /\n/g);
    if ($text =~ /\b(SIGNAL|SLOT)\s*\(/) {
      print "$ARGV:$line: string-based connect; use pointer-to-member with a context object\n"; $bad++;
    } elsif ($args == 3) {
      print "$ARGV:$line: connect without a context object (sender, signal, functor)\n"; $bad++;
    }
  }
  END { exit($bad ? 1 : 0) }
' $files
