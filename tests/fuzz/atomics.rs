//! The generator's atomic statements (docs/language.md, "Atomics"). Every one stays inside the
//! block's own data (row `B` of `out`, `acc[B]`, the block's `shared` arrays), so no two blocks
//! meet, and only forms whose result does not depend on the order of the atomics are drawn:
//! `add`, `sub`, `min`, `max`, `and`, `or` and `xor` per element (they commute), `exch` and
//! `cas` per element only with uniform operands (every element that succeeds stores the same
//! value), and any operation once per block on `acc[B]`, whose old value is then deterministic.
//! The vector subscripts and operands of a per-element atomic never read the array it updates
//! (the checker's E0605).
//! A float `atomic_add` of several elements into one place rounds in the order the threads
//! make them, which the block size decides: such a program is marked block-size dependent.
//! `Float16` and `BFloat16` have `atomic_add` only (PTX's `atom.add.f16`/`.bf16`).

use super::Gen;

impl Gen {
    pub(super) fn atomic_statement(&mut self, indent: usize) {
        let len = self.len;
        match self.rng.u32(0..4) {
            0 => {
                let place = self.gathered_place("out", "out[[B, ", len, "]]");
                let call = self.per_element_atomic("out", &place);
                self.emit(indent, call);
            }
            1 => {
                let scope = self.visible();
                if scope.shared.is_empty() {
                    return self.atomic_statement(indent);
                }
                let (name, n) = scope.shared[self.rng.usize(..scope.shared.len())].clone();
                let place = self.gathered_place(&name, &format!("{name}[["), n, "]]");
                let call = self.per_element_atomic(&name, &place);
                self.emit(indent, call);
            }
            2 => {
                let i = self.rng.i32(-1..=len as i32);
                let (op, operands) = self.uniform_operands();
                self.emit(indent, format!("atomic_{op}(out[[B, {i}]], {operands})"));
            }
            _ => {
                let name = self.fresh("o");
                let (op, operands) = self.uniform_operands();
                let t = self.t();
                self.emit(
                    indent,
                    format!("{name}: {t} <- atomic_{op}(acc[B], {operands})"),
                );
                self.scopes
                    .last_mut()
                    .expect("the kernel's scope")
                    .uniforms
                    .push((name, true));
            }
        }
    }

    /// `{open}Int32(v) % m{close}`: an element of a row (or a shared array) of `n` elements for
    /// each element of a vector, some of them outside it (dropped by the checked index).
    fn gathered_place(&mut self, array: &str, open: &str, n: usize, close: &str) -> String {
        let v = self.vector_not_reading(array);
        let m = n + self.rng.usize(0..4);
        format!("{open}Int32({v}) % {m}{close}")
    }

    /// One atomic per element of `place`, with an operation and operands whose result does not
    /// depend on the order of the atomics.
    fn per_element_atomic(&mut self, array: &str, place: &str) -> String {
        if self.ty.size() >= 4 && self.chance(25) {
            let (op, operands) = self.order_free_uniform();
            return format!("atomic_{op}({place}, {operands})");
        }
        let op = if self.ty.is_float() {
            self.sums_floats = true;
            "add"
        } else {
            self.pick(&["add", "sub", "min", "max", "and", "or", "xor"])
        };
        let operand = if self.chance(60) {
            self.vector_not_reading(array)
        } else {
            self.uniform(1)
        };
        format!("atomic_{op}({place}, {operand})")
    }

    /// A vector expression that does not read `array`: a vector atomic on `array` must not
    /// (E0605). After a few draws that do, a row of `x`.
    fn vector_not_reading(&mut self, array: &str) -> String {
        for _ in 0..8 {
            let v = self.vector(1);
            let reads = v
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|word| word == array);
            if !reads {
                return v;
            }
        }
        "x[B]".to_string()
    }

    /// `exch` or `cas` with uniform operands: every element that succeeds stores the same value.
    fn order_free_uniform(&mut self) -> (&'static str, String) {
        if self.ty.is_float() || self.chance(50) {
            ("exch", self.uniform(1))
        } else {
            let expected = self.uniform(1);
            let new = self.uniform(1);
            ("cas", format!("{expected}, {new}"))
        }
    }

    /// Any operation the element type has, with uniform operands: one atomic for the block.
    fn uniform_operands(&mut self) -> (&'static str, String) {
        let op = if self.ty.size() == 2 {
            "add"
        } else if self.ty.is_float() {
            self.pick(&["add", "exch"])
        } else {
            self.pick(&[
                "add", "sub", "min", "max", "and", "or", "xor", "exch", "cas",
            ])
        };
        let operands = if op == "cas" {
            let expected = self.uniform(1);
            let new = self.uniform(1);
            format!("{expected}, {new}")
        } else {
            self.uniform(1)
        };
        (op, operands)
    }
}
