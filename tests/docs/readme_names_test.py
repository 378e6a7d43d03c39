#!/usr/bin/env python3
"""Every name a README gives exists: docs that cannot drift.

For each README.md in the tree, the names written as `code` (and the YAML
config blocks) are checked against what the project really has, each derived
here from the project itself, never from a list in this file:

  path        a `dir/file` (or glob) under the repo root or the README's folder;
              a built program (`tests/bench/x/name`) is a target its folder's
              CMakeLists.txt defines; a bare `file.hpp`/`.cpp`/`.py`/`.sh` is a
              file of that name somewhere in the tree
  CLI flag    a flag in `opticsd SUBCOMMAND ...` (or `SUBCOMMAND --flag`) is in
              `opticsd SUBCOMMAND --help`; the subcommand itself is in
              `opticsd --help`; a lone `--flag` is in some --help
  config key  a dotted `section.key` whose section is a top-level config key, a
              `key: value` span, and every ```yaml block that is an opticsd
              config: `opticsd check-config` must not call any key unknown
  metric      an `opticsd_*` name is in the golden /metrics
              (tests/fixtures/metrics), a name the daemon's sources write, or a
              registry key under the `opticsd_lane_`/`opticsd_module_` prefixes
              the exporter composes; `_suffix` shorthands are expanded with the
              last full name's prefix on the same line

Usage: readme_names_test.py --source DIR --opticsd BIN [README...]
(default: every README.md in the tree). Exit 0 when all exist, 1 listing each
name that does not, with its file and line.
"""

import argparse
import fnmatch
import glob
import os
import re
import subprocess
import sys
import tempfile

SKIP_DIRS = {".git", "node_modules", "__pycache__"}
BARE_FILE = re.compile(r"^[\w.+-]+\.(hpp|cpp|h|py|sh|proto|sql|cmake)$")
METRIC = re.compile(r"(?<![\w/.-])opticsd_[a-z0-9_*<>]*[a-z0-9*>]")
SUFFIX = re.compile(r"^_[a-z][a-z0-9]*(_[a-z0-9]+)+$")
DOTTED_KEY = re.compile(r"^[a-z_]+(\.[a-z_]+)+$")
SPAN = re.compile(r"`([^`]+)`")
HISTOGRAM_PARTS = ("_bucket", "_sum", "_count")


def readmes(root):
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build"))
        if "README.md" in files:
            yield os.path.join(here, "README.md")


def tree_files(root):
    out = []
    for here, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
        out.extend(os.path.join(here, f) for f in files)
    return out


class Project:
    """What the project has, read from its tree and its binary."""

    def __init__(self, root, opticsd):
        self.root = root
        self.opticsd = opticsd
        self.files = tree_files(root)
        self.basenames = {os.path.basename(f) for f in self.files}
        self.top = {n for n in os.listdir(root) if not n.startswith("build") and n not in SKIP_DIRS}
        self.help = {None: self._help([])}
        self.subcommands = self._subcommands(self.help[None])
        for sub in self.subcommands:
            self.help[sub] = self._help([sub])
        self.metrics, self.prefixes, self.keys = self._metric_names()
        self.sections = self._config_sections()
        self.build_names = self._build_names()

    def _help(self, args):
        run = subprocess.run([self.opticsd, *args, "--help"], capture_output=True, text=True, timeout=30)
        return run.stdout + run.stderr

    @staticmethod
    def _subcommands(text):
        subs, inside = set(), False
        for line in text.splitlines():
            if re.match(r"^(SUBCOMMANDS|Subcommands):?", line):
                inside = True
                continue
            if inside:
                m = re.match(r"^\s+([a-z][a-z0-9-]*)\b", line)
                if m:
                    subs.add(m.group(1))
                elif line.strip() and not line.startswith(" "):
                    inside = False
        return subs

    def flags(self, sub):
        return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", self.help.get(sub, "")))

    def _metric_names(self):
        names, prefixes, keys, renames = set(), set(), set(), set()
        golden = os.path.join(self.root, "tests/fixtures/metrics")
        for path in glob.glob(os.path.join(golden, "*")):
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    m = re.match(r"^(?:# (?:TYPE|HELP) )?(opticsd_[a-z0-9_]+)", line)
                    if m:
                        names.add(m.group(1))
        for path in self.files:
            rel = os.path.relpath(path, self.root)
            if not rel.startswith(("daemon/", "drivers/")) or not rel.endswith((".cpp", ".hpp")):
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for literal in re.findall(r'"(opticsd_[a-z0-9_]*)"', text):
                (prefixes if literal.endswith("_") else names).add(literal)
            # Registry rows: {"key", "help", ...}; the exporter composes prefix + key.
            keys.update(re.findall(r'\{\s*"([a-z][a-z0-9_]*)"\s*,', text))
            # Unit renames on export: {"_milliamperes", "_amperes", ...}.
            renames.update(re.findall(r'\{\s*"(_[a-z]+)"\s*,\s*"(_[a-z]+)"\s*,', text))
        for old, new in renames:
            keys.update(k[: -len(old)] + new for k in list(keys) if k.endswith(old))
        return names, prefixes, keys

    def has_metric(self, name):
        for part in HISTOGRAM_PARTS:
            if name.endswith(part) and name[: -len(part)] in self.metrics:
                return True
        if name in self.metrics:
            return True
        return any(name.startswith(p) and name[len(p):] in self.keys for p in self.prefixes)

    def metric_glob(self, pattern):
        pattern = re.sub(r"<[^>]*>", "*", pattern)
        known = self.metrics | self.build_names | {p + k for p in self.prefixes for k in self.keys}
        return any(fnmatch.fnmatchcase(n, pattern) for n in known)

    def _config_sections(self):
        errors = self.check_config("opticsd_docs_probe: 1\n", with_targets=True)
        for line in errors:
            m = re.search(r"unknown key 'opticsd_docs_probe' \(expected one of: ([^)]*)\)", line)
            if m:
                return {k.strip() for k in m.group(1).split(",")}
        raise SystemExit("cannot learn the config's top-level keys from check-config:\n" + "\n".join(errors))

    def check_config(self, text, with_targets):
        if with_targets and not re.search(r"^targets:", text, re.M):
            text += "\ntargets: [{name: docs-check, driver: sim}]\n"
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write(text)
        try:
            run = subprocess.run([self.opticsd, "check-config", f.name], capture_output=True, text=True, timeout=30)
        finally:
            os.unlink(f.name)
        return [l for l in (run.stdout + run.stderr).splitlines() if "unknown key" in l]

    def _build_names(self):
        """Names that are not metrics: CMake targets and functions, and the
        scrape job names of the shipped Prometheus configs."""
        names = set()
        for path in self.files:
            if os.path.basename(path) == "CMakeLists.txt" or path.endswith(".cmake"):
                with open(path, encoding="utf-8", errors="replace") as f:
                    names.update(re.findall(r"\b(opticsd_[A-Za-z0-9_]+)\b", f.read()))
            elif path.endswith((".yml", ".yaml")):
                with open(path, encoding="utf-8", errors="replace") as f:
                    names.update(re.findall(r"job_name:\s*['\"]?([\w-]+)", f.read()))
        return names

    def has_path(self, token, readme_dir):
        for base in (readme_dir, self.root):
            if glob.glob(os.path.join(base, token)):
                return True
        # A placeholder (`<name>`, `8N-*.sh`, `DIR`) stands for any name.
        loose = re.sub(r"<[^>]*>", "*", token)
        loose = re.sub(r"(?<![a-z])[A-Z]+(?![a-z])", "*", loose)
        loose = re.sub(r"\b\d+-\d+-", "*-", loose)  # a range of numbered files: 70-76-*.sh
        for base in (readme_dir, self.root):
            if loose != token and glob.glob(os.path.join(base, loose)):
                return True
            parent, name = os.path.split(os.path.join(base, token.rstrip("/")))
            cmake = os.path.join(parent, "CMakeLists.txt")
            if os.path.isfile(cmake):
                with open(cmake, encoding="utf-8", errors="replace") as f:
                    if re.search(r"\b" + re.escape(name) + r"\b", f.read()):
                        return True  # a program built there
        return False


def spans_by_line(text):
    """(line number, span text, line) for each `span` outside fenced blocks,
    and (line number, block text) for each ```yaml block."""
    spans, blocks = [], []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            lang = lines[i][3:].strip()
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            if lang == "yaml":
                blocks.append((start + 1, "\n".join(lines[start:i])))
            i += 1
            continue
        # A span may run on to the next line of the paragraph.
        line = lines[i]
        while line.count("`") % 2 and i + 1 < len(lines) and lines[i + 1].strip():
            i += 1
            line += " " + lines[i]
        for m in SPAN.finditer(line):
            spans.append((i + 1, m.group(1).replace("\\|", "|"), line))
        i += 1
    return spans, blocks


def check_readme(project, path, problems):
    with open(path, encoding="utf-8") as f:
        spans, blocks = spans_by_line(f.read())
    rel = os.path.relpath(path, project.root) if path.startswith(project.root + os.sep) else path
    here = os.path.dirname(path)

    def bad(line, what):
        problems.append(f"{rel}:{line}: {what}")

    prefix_line, prefix = None, None
    for line_no, span, _ in spans:
        words = span.split()
        # Metric names, and `_suffix` shorthands after a full name on the line.
        if prefix_line != line_no:
            prefix_line, prefix = line_no, None
        for name in METRIC.findall(span):
            m = re.match(r"(opticsd_[a-z]+_)", name)
            if m and "<" not in name and "*" not in name:
                prefix = m.group(1)
            if "<" in name or "*" in name:
                if not project.metric_glob(name):
                    bad(line_no, f"no metric matches `{name}`")
            elif not project.has_metric(name) and name not in project.build_names:
                bad(line_no, f"no metric or build name `{name}`")
        if SUFFIX.match(span.strip()) and prefix:
            name = prefix + span.strip()[1:]
            if not project.has_metric(name):
                bad(line_no, f"no metric `{name}` (`{span}` after a `{prefix}` name)")
        if not words:
            continue
        # CLI: `opticsd SUB --flag`, `SUB --flag`, a lone `--flag`.
        sub, flags = None, []
        if words[0] == "opticsd" and len(words) > 1:
            if re.match(r"^[a-z][a-z0-9-]*$", words[1]):
                sub = words[1]
                if sub not in project.subcommands:
                    bad(line_no, f"no subcommand `opticsd {sub}` in `opticsd --help`")
                    sub = None
            flags = [w for w in words[1:] if w.startswith("-")]
        elif words[0] in project.subcommands and len(words) > 1 and words[1].startswith("-"):
            sub, flags = words[0], [w for w in words[1:] if w.startswith("-")]
        elif re.match(r"^--[a-z][a-z0-9-]*$", words[0]) and len(words) <= 2:
            flags = [words[0]]
            sub = "*"
        for flag in flags:
            flag = re.match(r"^\[?(--?[A-Za-z][\w-]*)", flag)
            if not flag:
                continue
            flag = flag.group(1)
            if sub == "*":
                known = set().union(*(project.flags(s) for s in project.help))
            else:
                known = project.flags(sub)
            if flag not in known:
                bad(line_no, f"no flag `{flag}` in `opticsd {sub + ' ' if sub and sub != '*' else ''}--help`")
        # Paths.
        token = words[0].rstrip(".,:;)")
        token = token.split("#")[0]
        first = token.split("/")[0]
        if "/" in token and not token.startswith(("/", "~", "$", "..", "http")) and "{" not in token:
            if first in project.top or os.path.exists(os.path.join(here, first)) or first == ".":
                if not project.has_path(token, here):
                    bad(line_no, f"no path `{token}` in the tree")
        elif len(words) == 1 and BARE_FILE.match(token) and token not in project.basenames:
            bad(line_no, f"no file named `{token}` in the tree")
        # Config keys: `section.key` and `section: ...`.
        if DOTTED_KEY.match(span) and span.split(".")[0] in project.sections:
            parts = span.split(".")
            yaml = "".join("  " * i + p + ":\n" for i, p in enumerate(parts[:-1]))
            yaml += "  " * (len(parts) - 1) + parts[-1] + ": 1\n"
            for err in project.check_config(yaml, with_targets=True):
                bad(line_no, f"config key `{span}`: {err}")
        # `key: value` may be written for the instance or for a target: known
        # if either place takes it.
        m = re.match(r"^([a-z_]+): ", span)
        if m and m.group(1) in project.sections and m.group(1) != "targets":
            errors = project.check_config(span + "\n", with_targets=True)
            if errors and project.check_config(f"targets:\n  - {{name: docs-check, driver: sim, {span}}}\n", False):
                for err in errors:
                    bad(line_no, f"config `{span}`: {err}")
    for line_no, block in blocks:
        top = set(re.findall(r"^([a-z_]+):", block, re.M))
        if top and top <= project.sections:
            for err in project.check_config(block + "\n", with_targets=True):
                bad(line_no, f"config block: {err}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--opticsd", required=True)
    parser.add_argument("readmes", nargs="*")
    args = parser.parse_args()
    project = Project(os.path.abspath(args.source), args.opticsd)
    paths = [os.path.abspath(p) for p in args.readmes] or list(readmes(project.root))
    problems = []
    for path in paths:
        check_readme(project, path, problems)
    for p in problems:
        print(p)
    print(f"{len(paths)} READMEs, {len(problems)} names that do not exist")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
