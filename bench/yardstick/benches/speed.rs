//! Divan benchmarks: the pack-driven kernel and the hand-written engines side by side.
fn main() {
    divan::main();
}
