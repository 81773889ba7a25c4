#!/usr/bin/env bash
# Build the Rust port of the original Mummy Maze (jonahshader/mummymaze-rl, its mummymaze-cli) from a
# local checkout, offline, with Debian's Rust crates: what bench/classic_port.py measures (issue 45).
#
#   bash bench/build_port.sh CHECKOUT BUILD_DIR      # prints the binary's path on its last line
#
# CHECKOUT is read only: its crates/mummymaze is copied to BUILD_DIR and the copy is changed, never the
# checkout, and nothing of it belongs in gridsolve. The changes, all outside the port's solver:
#   1. Cargo.toml: the Python bindings (pyo3, numpy) dropped and their feature off; the version pins
#      relaxed to Debian 12's crates (rand 0.8, thiserror 1, rustc-hash 1, and the minor versions of
#      rayon and csv); the checkout's Cargo.lock removed (cargo writes one from those crates).
#   2. .cargo/config.toml: crates-io replaced by a `directory` source at /usr/share/cargo/registry,
#      where Debian's librust-*-dev packages put their sources; cargo runs offline.
#   3. src/ga/: rand 0.9's names renamed to 0.8's (random_bool -> gen_bool, random_range -> gen_range,
#      random::<T>() -> r#gen::<T>(), gen being a keyword in edition 2024); the level generator is
#      not measured, it only has to compile.
#   4. src/bin/cli.rs: batch mode ignores --bfs-only (it always runs the full analysis), so a few lines
#      give it a BFS batch: the unchanged solver::solve over batch::collect_levels on --jobs threads,
#      printing `file,sublevel,bfs_moves` (bfs_moves empty where the level cannot be won).
# Needs: cargo and rustc (edition 2024: 1.85 or newer) and, as root,
#   apt-get install -y librust-rayon-dev librust-clap-dev librust-csv-dev librust-indicatif-dev \
#     librust-rand-dev librust-serde-json-dev librust-thiserror-dev librust-rustc-hash-dev \
#     librust-fasteval-dev librust-serde-dev
# Where one is missing the script says which and stops (exit code 2) before it copies anything.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: bash bench/build_port.sh CHECKOUT BUILD_DIR (CHECKOUT: a local checkout of jonahshader/mummymaze-rl)" >&2
    exit 2
fi
checkout=$1
build=$2
crate="$checkout/crates/mummymaze"
registry=/usr/share/cargo/registry
crates="rayon clap clap_derive csv indicatif rand serde serde_derive serde_json thiserror rustc-hash fasteval"

# - What the build needs ---
missing=()
[ -f "$crate/Cargo.toml" ] && [ -f "$crate/src/solver.rs" ] || missing+=("the port's crate ($crate/Cargo.toml, src/solver.rs): is $checkout a checkout of jonahshader/mummymaze-rl?")
command -v cargo >/dev/null || missing+=("cargo (Debian's 'cargo' package or a rustup toolchain, 1.85 or newer)")
command -v rustc >/dev/null || missing+=("rustc (1.85 or newer: the crate is edition 2024)")
for name in $crates; do
    compgen -G "$registry/$name-[0-9]*" >/dev/null || missing+=("the $name crate in $registry (apt-get install librust-$(echo "$name" | tr _ -)-dev)")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "bench/build_port.sh cannot build the port here; missing:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 2
fi

# - The copy ---
rm -rf "$build"
mkdir -p "$build"
cp -r "$crate/." "$build/"
cd "$build"
rm -f Cargo.lock

# - 1. Cargo.toml: no Python bindings, Debian's versions ---
sed -i \
    -e '/^pyo3 = /d' -e '/^numpy = /d' \
    -e 's/^default = \["python"\]/default = []/' -e '/^python = \[/d' \
    -e 's/^rand = "0\.9"/rand = "0.8"/' \
    -e 's/^thiserror = "2"/thiserror = "1"/' \
    -e 's/^rustc-hash = "2"/rustc-hash = "1"/' \
    -e 's/^rayon = "1\.10"/rayon = "1"/' \
    -e 's/^csv = "1\.3"/csv = "1"/' \
    -e 's/^crate-type = \["cdylib", "rlib"\]/crate-type = ["rlib"]/' \
    Cargo.toml

# - 2. Debian's crates as the only source ---
mkdir -p .cargo
cat > .cargo/config.toml <<EOF
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "$registry"

[net]
offline = true
EOF

# - 3. rand 0.9's names in src/ga/ as 0.8's ---
sed -i -e 's/\.random_bool(/.gen_bool(/g' -e 's/\.random_range(/.gen_range(/g' -e 's/\.random::</.r#gen::</g' src/ga/*.rs

# - 4. A BFS batch in the command line: solver::solve over batch::collect_levels ---
cat > /tmp/build_port_bfs_batch.$$ <<'EOF'
    if cli.bfs_only {
        // BFS batch (added by gridsolve's bench/build_port.sh): the unchanged solver over every level.
        use rayon::prelude::*;
        let levels = batch::collect_levels(&cli.maze_dir)?;
        if cli.jobs > 0 {
            rayon::ThreadPoolBuilder::new().num_threads(cli.jobs).build_global().ok();
        }
        let moves: Vec<Option<u32>> = levels.par_iter().map(|(_, _, lev)| mummymaze::solver::solve(lev).moves).collect();
        let mut out = String::from("file,sublevel,bfs_moves\n");
        for ((stem, sub, _), m) in levels.iter().zip(&moves) {
            out.push_str(&format!("{},{},{}\n", stem, sub, m.map(|m| m.to_string()).unwrap_or_default()));
        }
        print!("{}", out);
        return Ok(());
    }

EOF
grep -q '^    // Batch mode$' src/bin/cli.rs || { echo "src/bin/cli.rs has no '// Batch mode' line to put the BFS batch before" >&2; exit 1; }
awk -v block=/tmp/build_port_bfs_batch.$$ '/^    \/\/ Batch mode$/ { while ((getline line < block) > 0) print line } { print }' \
    src/bin/cli.rs > src/bin/cli.rs.new && mv src/bin/cli.rs.new src/bin/cli.rs
rm -f /tmp/build_port_bfs_batch.$$

# - The build ---
cargo build --release --offline --bin mummymaze-cli >&2
echo "$build/target/release/mummymaze-cli"
