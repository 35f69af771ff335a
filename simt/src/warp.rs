//! What a warp collective computes once every lane of its mask has arrived: PTX ISA `shfl.sync`,
//! `vote.sync`, `match.sync` and `bar.warp.sync`, as pure functions of the lanes' operands.
//!
//! The scheduler (`block.rs`) decides *when* a collective completes (every non-exited lane of the
//! mask waits at one with the same operation and mask); this module decides *what* each lane gets.

/// Lanes per warp on every NVIDIA GPU LOOM targets.
pub const WARP_SIZE: u32 = 32;

/// `shfl.sync` modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

/// A warp collective as the lanes request it; lanes meet only on equal operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarpOp {
    /// `shfl.sync.<mode>`: `value` is the lane's 32-bit operand `a`, `b` the lane or offset, `c`
    /// the clamp and segment mask.
    Shfl {
        mode: ShflMode,
    },
    VoteAll,
    VoteAny,
    VoteUni,
    VoteBallot,
    MatchAny,
    MatchAll,
    /// `bar.warp.sync`: only waits.
    Sync,
}

impl WarpOp {
    pub fn name(self) -> &'static str {
        match self {
            WarpOp::Shfl {
                mode: ShflMode::Idx,
            } => "shfl.sync.idx",
            WarpOp::Shfl { mode: ShflMode::Up } => "shfl.sync.up",
            WarpOp::Shfl {
                mode: ShflMode::Down,
            } => "shfl.sync.down",
            WarpOp::Shfl {
                mode: ShflMode::Bfly,
            } => "shfl.sync.bfly",
            WarpOp::VoteAll => "vote.sync.all",
            WarpOp::VoteAny => "vote.sync.any",
            WarpOp::VoteUni => "vote.sync.uni",
            WarpOp::VoteBallot => "vote.sync.ballot",
            WarpOp::MatchAny => "match.any.sync",
            WarpOp::MatchAll => "match.all.sync",
            WarpOp::Sync => "bar.warp.sync",
        }
    }
}

/// One lane's operands of a collective.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaneInput {
    /// The value operand (`a` of a shuffle, the predicate of a vote as 0/1, the value of a match).
    pub value: u64,
    /// `b` of a shuffle.
    pub b: u32,
    /// `c` of a shuffle.
    pub c: u32,
}

/// One lane's result: `value` (the shuffled value, the vote, the ballot or match mask) and
/// `pred` (the shuffle's "source lane was in range" or match.all's "all equal").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaneOutput {
    pub value: u64,
    pub pred: bool,
}

/// Where a shuffle reads from: PTX ISA's pseudo-code for `shfl.sync`, with `c` packing the clamp
/// value (bits 0-4) and the segment mask (bits 8-12). Returns the source lane and whether it
/// was in range (when it is not, the lane reads its own value).
pub fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let bval = b & 0x1f;
    let cval = c & 0x1f;
    let segmask = (c >> 8) & 0x1f;
    let max_lane = (lane & segmask) | (cval & !segmask);
    let min_lane = lane & segmask;
    let (j, in_range) = match mode {
        ShflMode::Up => {
            let j = lane as i64 - bval as i64;
            (j, j >= max_lane as i64)
        }
        ShflMode::Down => {
            let j = lane as i64 + bval as i64;
            (j, j <= max_lane as i64)
        }
        ShflMode::Bfly => {
            let j = (lane ^ bval) as i64;
            (j, j <= max_lane as i64)
        }
        ShflMode::Idx => {
            let j = (min_lane | (bval & !segmask)) as i64;
            (j, j <= max_lane as i64)
        }
    };
    if in_range {
        (j as u32, true)
    } else {
        (lane, false)
    }
}

/// Why a collective has no defined result for some lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOutsideMask {
    pub lane: u32,
    pub source: u32,
}

/// Results for every lane of `mask`, from the inputs of the lanes that take part (`inputs[l]` is
/// `Some` for lane `l` of the mask that has not exited). A shuffle that reads a lane outside the
/// mask, or one that has exited, gets an unpredictable value on the GPU: here it gets its own
/// value, and the first such read is returned beside the results so that the sanitizer can
/// report it.
pub fn execute(
    op: WarpOp,
    inputs: &[Option<LaneInput>; WARP_SIZE as usize],
) -> ([LaneOutput; WARP_SIZE as usize], Option<ReadOutsideMask>) {
    let mut out = [LaneOutput::default(); WARP_SIZE as usize];
    let mut outside = None;
    let lanes = || (0..WARP_SIZE).filter(|l| inputs[*l as usize].is_some());
    let input = |l: u32| inputs[l as usize].unwrap_or_default();
    match op {
        WarpOp::Shfl { mode } => {
            for lane in lanes() {
                let me = input(lane);
                let (source, pred) = shfl_source(mode, lane, me.b, me.c);
                let value = match inputs.get(source as usize).copied().flatten() {
                    Some(other) => other.value,
                    None => {
                        outside.get_or_insert(ReadOutsideMask { lane, source });
                        me.value
                    }
                };
                out[lane as usize] = LaneOutput { value, pred };
            }
        }
        WarpOp::VoteAll | WarpOp::VoteAny | WarpOp::VoteUni | WarpOp::VoteBallot => {
            let ballot = lanes()
                .filter(|l| input(*l).value != 0)
                .fold(0u32, |m, l| m | (1 << l));
            let members = lanes().fold(0u32, |m, l| m | (1 << l));
            let value = match op {
                WarpOp::VoteAll => (ballot == members) as u64,
                WarpOp::VoteAny => (ballot != 0) as u64,
                WarpOp::VoteUni => (ballot == members || ballot == 0) as u64,
                _ => ballot as u64,
            };
            for lane in lanes() {
                out[lane as usize] = LaneOutput { value, pred: false };
            }
        }
        WarpOp::MatchAny => {
            for lane in lanes() {
                let mine = input(lane).value;
                let same = lanes()
                    .filter(|l| input(*l).value == mine)
                    .fold(0u32, |m, l| m | (1 << l));
                out[lane as usize] = LaneOutput {
                    value: same as u64,
                    pred: false,
                };
            }
        }
        WarpOp::MatchAll => {
            let members = lanes().fold(0u32, |m, l| m | (1 << l));
            let first = lanes().next().map(input).unwrap_or_default().value;
            let all = lanes().all(|l| input(l).value == first);
            for lane in lanes() {
                out[lane as usize] = LaneOutput {
                    value: if all { members as u64 } else { 0 },
                    pred: all,
                };
            }
        }
        WarpOp::Sync => {}
    }
    (out, outside)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lanes(f: impl Fn(u32) -> LaneInput) -> [Option<LaneInput>; 32] {
        std::array::from_fn(|l| Some(f(l as u32)))
    }

    #[test]
    fn shfl_down_full_warp_clamps_at_the_last_lane() {
        // __shfl_down_sync(~0, v, 4): c = 0x1f (clamp 31, no segments).
        let inputs = all_lanes(|l| LaneInput {
            value: 100 + l as u64,
            b: 4,
            c: 0x1f,
        });
        let (out, outside) = execute(
            WarpOp::Shfl {
                mode: ShflMode::Down,
            },
            &inputs,
        );
        assert_eq!(outside, None);
        for lane in 0..32u32 {
            let expected = if lane + 4 <= 31 { lane + 4 } else { lane };
            assert_eq!(
                out[lane as usize].value,
                100 + expected as u64,
                "lane {lane}"
            );
            assert_eq!(out[lane as usize].pred, lane + 4 <= 31);
        }
    }

    #[test]
    fn shfl_width_8_stays_in_its_segment() {
        // __shfl_down_sync(~0, v, 1, 8): c = ((32 - 8) << 8) | 0x1f.
        let c = ((32 - 8) << 8) | 0x1f;
        for lane in 0..32u32 {
            let (src, ok) = shfl_source(ShflMode::Down, lane, 1, c);
            let segment_end = (lane / 8) * 8 + 7;
            if lane < segment_end {
                assert_eq!((src, ok), (lane + 1, true));
            } else {
                assert_eq!((src, ok), (lane, false));
            }
        }
        // __shfl_up_sync(~0, v, 2, 16): c = (32 - 16) << 8.
        let c = (32 - 16) << 8;
        for lane in 0..32u32 {
            let (src, ok) = shfl_source(ShflMode::Up, lane, 2, c);
            if lane % 16 >= 2 {
                assert_eq!((src, ok), (lane - 2, true));
            } else {
                assert_eq!((src, ok), (lane, false));
            }
        }
        // __shfl_sync(~0, v, 3, 4): idx within segments of 4, c = ((32 - 4) << 8) | 0x1f.
        let c = ((32 - 4) << 8) | 0x1f;
        for lane in 0..32u32 {
            assert_eq!(
                shfl_source(ShflMode::Idx, lane, 3, c),
                ((lane / 4) * 4 + 3, true)
            );
        }
        // __shfl_xor_sync(~0, v, 16)
        for lane in 0..32u32 {
            assert_eq!(
                shfl_source(ShflMode::Bfly, lane, 16, 0x1f),
                (lane ^ 16, true)
            );
        }
    }

    #[test]
    fn shfl_from_a_lane_outside_the_mask_is_reported() {
        let mut inputs = all_lanes(|l| LaneInput {
            value: l as u64,
            b: 0,
            c: 0x1f,
        });
        inputs[0] = None;
        let (out, outside) = execute(
            WarpOp::Shfl {
                mode: ShflMode::Idx,
            },
            &inputs,
        );
        assert_eq!(outside, Some(ReadOutsideMask { lane: 1, source: 0 }));
        assert_eq!(out[5].value, 5);
    }

    #[test]
    fn votes_and_matches() {
        let mut inputs = all_lanes(|l| LaneInput {
            value: (l % 3 == 0) as u64,
            ..LaneInput::default()
        });
        inputs[31] = None;
        let ballot = (0..31).filter(|l| l % 3 == 0).fold(0u32, |m, l| m | 1 << l);
        assert_eq!(
            execute(WarpOp::VoteBallot, &inputs).0[4].value,
            ballot as u64
        );
        assert_eq!(execute(WarpOp::VoteAny, &inputs).0[4].value, 1);
        assert_eq!(execute(WarpOp::VoteAll, &inputs).0[4].value, 0);
        assert_eq!(execute(WarpOp::VoteUni, &inputs).0[4].value, 0);
        assert_eq!(
            execute(WarpOp::VoteAll, &inputs).0[31],
            LaneOutput::default()
        );
        let any = execute(WarpOp::MatchAny, &inputs).0;
        assert_eq!(any[3].value, ballot as u64);
        assert_eq!(any[1].value, (!ballot & 0x7fff_ffff) as u64);
        let all = execute(WarpOp::MatchAll, &inputs).0;
        assert_eq!(
            all[0],
            LaneOutput {
                value: 0,
                pred: false
            }
        );
        let same = all_lanes(|_| LaneInput {
            value: 7,
            ..LaneInput::default()
        });
        let all = execute(WarpOp::MatchAll, &same).0;
        assert_eq!(
            all[9],
            LaneOutput {
                value: 0xffff_ffff,
                pred: true
            }
        );
    }
}
