//! A read-only snapshot of the parts of an LLVM module that the kernel analyses need.
//!
//! The analyses (divergence, barrier placement, races) are plain Rust over this snapshot rather
//! than calls into LLVM's C API: they are easier to test, cannot corrupt the module, and the only
//! unsafe code is the reader in `ir/read.rs`. The snapshot keeps what a proof needs (control flow,
//! integer arithmetic, address computations with their byte scales, memory accesses, calls,
//! debug locations) and reduces everything else to `Op::Other`.

mod read;

pub(crate) use read::read_module;

pub type InstId = usize;
pub type BlockId = usize;

/// An operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Val {
    /// The result of an instruction (or of a constant expression, which the reader turns into an
    /// instruction without a block).
    Inst(InstId),
    /// A function argument, by position.
    Arg(usize),
    /// An integer constant (sign-extended) and its width.
    Int {
        value: i128,
        bits: u32,
    },
    /// A global variable or function, by index into [`Module::globals`].
    Global(usize),
    Null,
    /// `undef` or `poison`.
    Undef,
    /// Any other constant (floating-point, aggregate, vector, metadata), by identity: LLVM
    /// keeps one copy of each constant in a context, so two operands hold the same constant
    /// exactly when their identities are equal. (All of them once collapsed into one value, so
    /// `phi float [1.0], [2.0]` after a branch on `tid` looked like one value.)
    Other(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Int(u32),
    Ptr(u32),
    Void,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    /// `disjoint`: no bit is set in both operands, so the `or` is an `add`.
    Or {
        disjoint: bool,
    },
    Xor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

impl Pred {
    /// The predicate with its operands exchanged: `a < b` is `b > a`.
    pub fn swapped(self) -> Pred {
        match self {
            Pred::Ugt => Pred::Ult,
            Pred::Uge => Pred::Ule,
            Pred::Ult => Pred::Ugt,
            Pred::Ule => Pred::Uge,
            Pred::Sgt => Pred::Slt,
            Pred::Sge => Pred::Sle,
            Pred::Slt => Pred::Sgt,
            Pred::Sle => Pred::Sge,
            other => other,
        }
    }

    /// The predicate that holds exactly when this one fails: `a < b` becomes `a >= b`.
    pub fn inverted(self) -> Pred {
        match self {
            Pred::Eq => Pred::Ne,
            Pred::Ne => Pred::Eq,
            Pred::Ugt => Pred::Ule,
            Pred::Uge => Pred::Ult,
            Pred::Ult => Pred::Uge,
            Pred::Ule => Pred::Ugt,
            Pred::Sgt => Pred::Sle,
            Pred::Sge => Pred::Slt,
            Pred::Slt => Pred::Sge,
            Pred::Sle => Pred::Sgt,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastOp {
    Trunc,
    /// `non_negative`: the `nneg` flag, the operand is known not to be negative (the result is
    /// poison otherwise), so the value is also the operand's sign extension.
    ZExt {
        non_negative: bool,
    },
    SExt,
    PtrToInt,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
    Freeze,
}

/// How one index of a `getelementptr` moves the address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GepIndex {
    /// The index times this many bytes (array elements, the pointer operand's stride).
    Scaled(i64),
    /// A struct field: a constant offset in bytes (the index operand is a constant).
    Field(i64),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Bin(BinOp),
    ICmp(Pred),
    /// Operands: condition, true value, false value.
    Select,
    /// Incoming blocks, parallel to the operands.
    Phi(Vec<BlockId>),
    Cast(CastOp),
    /// Operand 0 is the base pointer; operands 1.. are the indices, one step each.
    Gep(Vec<GepIndex>),
    /// Operand 0: the address.
    Load {
        bytes: u64,
        atomic: bool,
    },
    /// Operands: value, address.
    Store {
        bytes: u64,
        atomic: bool,
    },
    /// Operands: address, value.
    AtomicRmw {
        bytes: u64,
    },
    /// Operands: address, expected, new.
    CmpXchg {
        bytes: u64,
    },
    /// Operands: the call's arguments.
    Call(Callee),
    Alloca,
    ExtractValue(Vec<u32>),
    Br,
    /// Operand 0: the condition; successors `[true, false]`.
    CondBr,
    /// Operand 0: the condition, then the case values; successors `[default, case 0, ...]`.
    Switch,
    Ret,
    Unreachable,
    Fence,
    /// Any other instruction, by LLVM's opcode name.
    Other(&'static str),
}

impl Op {
    /// The operation as value numbering keys it: instructions whose operations have one
    /// `numbered()` compute one value from the same operands wherever both are defined. A `zext
    /// nneg` is defined only where its operand is not negative, and there it is the operand's
    /// sign extension, so it counts as a `sext`: GVN's partial redundancy elimination makes a
    /// `sext` copy of what InstCombine wrote as `zext nneg` (a row base `cols * B` merged from
    /// two paths, one of them a copy). Other flags are not read.
    pub fn numbered(&self) -> Op {
        match self {
            Op::Cast(CastOp::ZExt { non_negative: true }) => Op::Cast(CastOp::SExt),
            other => other.clone(),
        }
    }

    /// Whether two instructions of these operations compute one value from the same operands
    /// wherever both are defined: as [`Op::numbered`] says, or two `zext`s with and without
    /// `nneg` (a pair, not a key: a `zext` and a `sext` differ on negative operands).
    pub fn same_result(&self, other: &Op) -> bool {
        matches!(
            (self, other),
            (Op::Cast(CastOp::ZExt { .. }), Op::Cast(CastOp::ZExt { .. }))
        ) || self.numbered() == other.numbered()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Callee {
    /// A function of the module (defined or declared), by index into [`Module::globals`].
    Function(usize),
    InlineAsm,
    Indirect,
}

/// A source position from an instruction's `!dbg` attachment.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DebugLoc {
    pub file: String,
    pub directory: String,
    pub line: u32,
    pub column: u32,
    /// Where the code was inlined, innermost call site first; the last entry is in the function
    /// that was analysed.
    pub inlined_at: Vec<DebugLoc>,
}

impl DebugLoc {
    /// The outermost position: the statement of the analysed function itself.
    pub fn outermost(&self) -> &DebugLoc {
        self.inlined_at.last().unwrap_or(self)
    }
}

impl std::fmt::Display for DebugLoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

#[derive(Debug, Clone)]
pub struct Inst {
    pub op: Op,
    pub args: Vec<Val>,
    pub ty: Ty,
    /// `None` for constant expressions.
    pub block: Option<BlockId>,
    /// A constant expression's text, printed when read. An instruction's is `None`: its function
    /// prints them when one is first asked for ([`Function::text`]).
    pub text: Option<String>,
    pub loc: Option<DebugLoc>,
}

#[derive(Debug, Clone, Default)]
pub struct Block {
    pub name: String,
    pub insts: Vec<InstId>,
    pub succs: Vec<BlockId>,
    pub preds: Vec<BlockId>,
}

#[derive(Debug, Clone)]
pub struct Argument {
    pub name: String,
    pub ty: Ty,
    /// Passed by value (`byval`): the pointer is to the thread's own copy of a struct, not to
    /// memory threads share.
    pub byval: bool,
}

/// A defined function. Block 0 is the entry.
#[derive(Debug, Clone)]
pub struct Function {
    pub name: String,
    /// Index of this function in [`Module::globals`].
    pub global: usize,
    pub args: Vec<Argument>,
    pub blocks: Vec<Block>,
    pub insts: Vec<Inst>,
    /// The instructions' text, shared by the copies the analyses make of the function.
    pub(crate) printed: std::rc::Rc<read::PrintedInstructions>,
}

#[derive(Debug, Clone)]
pub struct Global {
    pub name: String,
    pub addrspace: u32,
    pub function: Option<FunctionInfo>,
    /// A shared variable declared without a definition (`extern __shared__ float s[]`): CUDA's
    /// dynamic shared memory. All of a kernel's such variables start at the same address.
    pub dynamic_shared: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FunctionInfo {
    pub defined: bool,
    /// The function carries the `convergent` attribute.
    pub convergent: bool,
}

#[derive(Debug, Clone)]
pub struct Module {
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
}

impl Module {
    /// The memory object global `g` names: itself, or for dynamic shared memory the first
    /// dynamic shared variable (they all alias one buffer).
    pub fn object_of(&self, g: usize) -> usize {
        if self.globals.get(g).is_some_and(|x| x.dynamic_shared) {
            self.globals
                .iter()
                .position(|x| x.dynamic_shared)
                .unwrap_or(g)
        } else {
            g
        }
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    pub fn callee_name(&self, callee: Callee) -> Option<&str> {
        match callee {
            Callee::Function(g) => self.globals.get(g).map(|g| g.name.as_str()),
            Callee::InlineAsm | Callee::Indirect => None,
        }
    }
}

impl Function {
    pub fn inst(&self, id: InstId) -> &Inst {
        &self.insts[id]
    }

    /// Instruction `id` as LLVM prints it, without its metadata attachments, for reports (and
    /// for what only the text says, such as an inline assembly's template).
    pub fn text(&self, id: InstId) -> &str {
        match &self.insts[id].text {
            Some(text) => text,
            None => self.printed.line(id),
        }
    }

    /// The leaves of a tree of `or`s rooted at `value` (`value` itself when it is no `or`),
    /// expanded while fewer than 16 are found: `(a | b) == 0` is InstCombine's form of
    /// `a == 0 && b == 0`.
    pub fn or_leaves(&self, value: Val) -> Vec<Val> {
        let mut leaves = Vec::new();
        let mut work = vec![value];
        while let Some(v) = work.pop() {
            match v {
                Val::Inst(id) if leaves.len() < 16 => match self.inst(id).op {
                    Op::Bin(BinOp::Or { .. }) => work.extend(self.inst(id).args.iter().copied()),
                    _ => leaves.push(v),
                },
                _ => leaves.push(v),
            }
        }
        leaves
    }

    /// The pointer `value` is computed from by address arithmetic or a cast that keeps the
    /// address (`getelementptr`, `bitcast`, `addrspacecast`, `freeze`), if it is so computed.
    pub fn address_source(&self, value: Val) -> Option<Val> {
        let Val::Inst(id) = value else { return None };
        let inst = self.inst(id);
        match inst.op {
            Op::Gep(_) | Op::Cast(CastOp::BitCast | CastOp::AddrSpaceCast | CastOp::Freeze) => {
                inst.args.first().copied()
            }
            _ => None,
        }
    }

    /// Where following [`Function::address_source`] from `pointer` ends: an argument, a global,
    /// an `alloca`, a loaded pointer, a phi... `None` past 64 steps.
    pub fn address_base(&self, pointer: Val) -> Option<Val> {
        let mut value = pointer;
        for _ in 0..64 {
            match self.address_source(value) {
                Some(source) => value = source,
                None => return Some(value),
            }
        }
        None
    }

    /// The terminator of a block (its last instruction).
    pub fn terminator(&self, block: BlockId) -> Option<InstId> {
        self.blocks[block].insts.last().copied()
    }

    /// The width of an integer or pointer value (pointers count as 64 bits).
    pub fn bits(&self, value: Val) -> Option<u32> {
        match value {
            Val::Int { bits, .. } => Some(bits),
            Val::Inst(i) => ty_bits(self.insts[i].ty),
            Val::Arg(a) => self.args.get(a).and_then(|a| ty_bits(a.ty)),
            Val::Global(_) | Val::Null => Some(64),
            Val::Undef | Val::Other(_) => None,
        }
    }

    pub fn ty(&self, value: Val) -> Ty {
        match value {
            Val::Int { bits, .. } => Ty::Int(bits),
            Val::Inst(i) => self.insts[i].ty,
            Val::Arg(a) => self.args.get(a).map(|a| a.ty).unwrap_or(Ty::Other),
            Val::Global(_) | Val::Null => Ty::Ptr(0),
            Val::Undef | Val::Other(_) => Ty::Other,
        }
    }
}

fn ty_bits(ty: Ty) -> Option<u32> {
    match ty {
        Ty::Int(bits) => Some(bits),
        Ty::Ptr(_) => Some(64),
        Ty::Void | Ty::Other => None,
    }
}
