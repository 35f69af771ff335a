//! The atomics' execution cases (`examples/histogram.loom`,
//! `tests/run/programs/atomics.loom`), listed in `cases.rs`. Blocks run concurrently on the CPU
//! backend, so these check that no update is lost. Results that depend on the order of the
//! atomics (tickets, the winner of a race) are checked for what every order gives, and what
//! they return for the `-O0`/`-O3` comparison is the part that does not depend on the order.

use super::support::{array, bytes, exact, launch, Rng};
use loomc::target::host::{HostArg, HostProgram};

fn blocks_for(n: usize, bs: u32) -> usize {
    n.div_ceil(bs as usize).max(1)
}

const BINS: usize = 37;

pub fn histogram(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    // Some values fall outside the bins: checked indexing drops them.
    let mut x = rng.i32s(n, -3, BINS as i32 + 3);
    let mut hist = vec![0u32; BINS];
    let mut expected = vec![0u32; BINS];
    for &v in &x {
        if (0..BINS as i32).contains(&v) {
            expected[v as usize] += 1;
        }
    }
    launch(
        p,
        "histogram",
        blocks_for(n, bs) as u32,
        &mut [
            HostArg::I32(n as i32),
            HostArg::I32(BINS as i32),
            array("x", &mut x),
            array("hist", &mut hist),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("hist", &hist, &expected)?;
    Ok(bytes(&hist))
}

pub fn atomics(p: &HostProgram, bs: u32, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let blocks = blocks_for(n, bs);
    let mut out = fold_all(p, blocks, n, rng)?;
    out.extend(seen(p, blocks, n, rng)?);
    out.extend(tickets(p, blocks)?);
    out.extend(shared_histogram(p, blocks, n, rng)?);
    Ok(out)
}

fn fold_all(p: &HostProgram, blocks: usize, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let mut x = rng.i32s(n, -1000, 1000);
    let mut r = vec![i32::MAX, i32::MIN, 5, 5];
    let mut u = vec![u32::MAX, 0x8000_0000, 0x1234];
    let mut w = vec![i64::MAX, i64::MIN];
    let mut f = vec![0.25f64];
    let mut er = r.clone();
    let mut eu = u.clone();
    let mut ew = w.clone();
    let mut ef = f.clone();
    for &v in &x {
        er[0] = er[0].min(v);
        er[1] = er[1].max(v);
        er[2] = er[2].wrapping_add(v);
        er[3] = er[3].wrapping_sub(v);
        eu[0] &= v as u32;
        eu[1] |= v as u32;
        eu[2] ^= v as u32;
        ew[0] = ew[0].min(v as i64 * 1_000_000);
        ew[1] = ew[1].max(v as i64 * 1_000_000);
        // Halves of small integers: exact in any order.
        ef[0] += v as f64 * 0.5;
    }
    launch(
        p,
        "foldAll",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("r", &mut r),
            array("u", &mut u),
            array("w", &mut w),
            array("f", &mut f),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("r (min, max, add, sub)", &r, &er)?;
    exact("u (and, or, xor)", &u, &eu)?;
    exact("w (Int64 min, max)", &w, &ew)?;
    exact("f (Float64 add)", &f, &ef)?;
    let mut out = bytes(&r);
    out.extend(bytes(&u));
    out.extend(bytes(&w));
    out.extend(bytes(&f));
    Ok(out)
}

fn seen(p: &HostProgram, blocks: usize, n: usize, rng: &mut Rng) -> Result<Vec<u8>, String> {
    let mut x = rng.i32s(n, -3, BINS as i32 + 3);
    let mut by_exch = vec![-1.0f32; BINS];
    let mut by_cas = vec![0u64; BINS];
    let mut expected_exch = by_exch.clone();
    let mut expected_cas = by_cas.clone();
    for &v in &x {
        if (0..BINS as i32).contains(&v) {
            expected_exch[v as usize] = 1.5;
            expected_cas[v as usize] = 7;
        }
    }
    launch(
        p,
        "seen",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            HostArg::I32(BINS as i32),
            array("x", &mut x),
            array("byExch", &mut by_exch),
            array("byCas", &mut by_cas),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("byExch", &by_exch, &expected_exch)?;
    exact("byCas", &by_cas, &expected_cas)?;
    let mut out = bytes(&by_exch);
    out.extend(bytes(&by_cas));
    Ok(out)
}

fn tickets(p: &HostProgram, blocks: usize) -> Result<Vec<u8>, String> {
    let mut count = vec![0i32];
    let mut order = vec![-7i32; blocks];
    let mut slot = vec![-1i32];
    let mut won = vec![-7i32; blocks];
    launch(
        p,
        "tickets",
        blocks as u32,
        &mut [
            array("count", &mut count),
            array("order", &mut order),
            array("slot", &mut slot),
            array("won", &mut won),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("count", &count, &[blocks as i32])?;
    // Each block drew a different ticket: in some order, 0 .. BLOCKS.
    let mut sorted = order.clone();
    sorted.sort_unstable();
    let all: Vec<i32> = (0..blocks as i32).collect();
    exact("the tickets, sorted", &sorted, &all)?;
    // Exactly one block found the slot empty, and the slot holds its number.
    let winners: Vec<usize> = (0..blocks).filter(|&b| won[b] == 1).collect();
    if winners.len() != 1 || won.iter().any(|&w| w != 0 && w != 1) {
        return Err(format!(
            "won = {won:?}: expected exactly one 1, the others 0"
        ));
    }
    exact("slot", &slot, &[winners[0] as i32])?;
    Ok(bytes(&sorted))
}

fn shared_histogram(
    p: &HostProgram,
    blocks: usize,
    n: usize,
    rng: &mut Rng,
) -> Result<Vec<u8>, String> {
    let mut x = rng.i32s(n, -2, 18);
    let mut hist = vec![3i32; 16];
    let mut expected = hist.clone();
    for &v in &x {
        if (0..16).contains(&v) {
            expected[v as usize] += 1;
        }
    }
    launch(
        p,
        "sharedHistogram",
        blocks as u32,
        &mut [
            HostArg::I32(n as i32),
            array("x", &mut x),
            array("hist", &mut hist),
        ],
    )
    .map_err(|e| e.to_string())?;
    exact("hist", &hist, &expected)?;
    Ok(bytes(&hist))
}
