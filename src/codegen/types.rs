//! LOOM types as LLVM types, and type expressions (parameters, declarations) as LOOM types.
//!
//! Registers and memory differ only for `Bool`: `i1` in registers, `i8` in memory (PTX has no
//! 1-bit memory type). Records are LLVM structs of their fields' *memory* types in both places, so a
//! record moves between registers and memory unchanged; a `Bool` field converts when it is read out
//! of or put into a record.

use super::error::CodegenError;
use crate::check::types::{Len, RecordField, RecordTable, Scalar, Space, Ty};
use crate::syntax::ast::{Item, Program, TypeExpr};
use inkwell::context::Context;
use inkwell::types::{BasicType, BasicTypeEnum, StructType};
use inkwell::AddressSpace;
use std::collections::HashMap;

/// NVPTX address spaces.
pub const GLOBAL: u16 = 1;
pub const SHARED: u16 = 3;

pub struct Types<'ctx> {
    context: &'ctx Context,
    pub range: StructType<'ctx>,
}

impl<'ctx> Types<'ctx> {
    pub fn new(context: &'ctx Context) -> Types<'ctx> {
        let i32t = context.i32_type();
        Types {
            context,
            range: context.struct_type(&[i32t.into(), i32t.into()], false),
        }
    }

    pub fn scalar(&self, scalar: Scalar) -> BasicTypeEnum<'ctx> {
        let c = self.context;
        match scalar {
            Scalar::Int8 | Scalar::UInt8 => c.i8_type().into(),
            Scalar::Int16 | Scalar::UInt16 => c.i16_type().into(),
            Scalar::Int32 | Scalar::UInt32 => c.i32_type().into(),
            Scalar::Int64 | Scalar::UInt64 => c.i64_type().into(),
            Scalar::Float16 => c.f16_type().into(),
            Scalar::BFloat16 => c.bf16_type().into(),
            Scalar::Float32 => c.f32_type().into(),
            Scalar::Float64 => c.f64_type().into(),
            Scalar::Bool => c.bool_type().into(),
        }
    }

    /// The type of a value of `ty` in a register.
    pub fn reg(&self, ty: &Ty, records: &RecordTable) -> Option<BasicTypeEnum<'ctx>> {
        match ty {
            Ty::Scalar(s) => Some(self.scalar(*s)),
            Ty::Range => Some(self.range.into()),
            Ty::Record(id) => {
                let fields: Option<Vec<BasicTypeEnum>> = records
                    .fields(*id)
                    .iter()
                    .map(|f| self.mem(&f.ty, records))
                    .collect();
                Some(self.context.struct_type(&fields?, false).into())
            }
            Ty::Array { .. } | Ty::Vector { .. } | Ty::Unit | Ty::Error => None,
        }
    }

    /// The type of a value of `ty` in memory.
    pub fn mem(&self, ty: &Ty, records: &RecordTable) -> Option<BasicTypeEnum<'ctx>> {
        match ty {
            Ty::Scalar(Scalar::Bool) => Some(self.context.i8_type().into()),
            other => self.reg(other, records),
        }
    }

    /// The integer type of `bits` bits (8, 16, 32, 64 or 1).
    pub fn int(&self, bits: u32) -> inkwell::types::IntType<'ctx> {
        match bits {
            1 => self.context.bool_type(),
            8 => self.context.i8_type(),
            16 => self.context.i16_type(),
            32 => self.context.i32_type(),
            _ => self.context.i64_type(),
        }
    }

    /// How an array argument of a `func` travels: `{ptr addrspace(space), i32 x dims}`, the
    /// space being the argument's: [`GLOBAL`] or [`SHARED`] (a func called with a `shared`
    /// array is specialised for it, `codegen::func`).
    pub fn array_arg(&self, dims: usize, space: u16) -> inkwell::types::StructType<'ctx> {
        let ptr = self.context.ptr_type(AddressSpace::from(space));
        let mut fields: Vec<BasicTypeEnum> = vec![ptr.as_basic_type_enum()];
        fields.extend(std::iter::repeat_n(
            BasicTypeEnum::from(self.context.i32_type()),
            dims,
        ));
        self.context.struct_type(&fields, false)
    }

    pub fn global_ptr(&self) -> BasicTypeEnum<'ctx> {
        self.context
            .ptr_type(AddressSpace::from(GLOBAL))
            .as_basic_type_enum()
    }
}

/// Resolves type expressions the way the checker does: primitive names, aliases, records, arrays.
/// Records are interned in a copy of the checker's table, so a record type gets the id the checker
/// gave it.
pub struct TypeResolver {
    aliases: HashMap<String, TypeExpr>,
    pub records: RecordTable,
}

impl TypeResolver {
    pub fn new(program: &Program, records: &RecordTable) -> TypeResolver {
        let aliases = program
            .items
            .iter()
            .filter_map(|item| match item {
                Item::TypeAlias(a) => Some((a.name.name.clone(), a.ty.clone())),
                _ => None,
            })
            .collect();
        TypeResolver {
            aliases,
            records: records.clone(),
        }
    }

    /// `space` is where an array type lives (kernel parameters: global; `shared`: shared).
    /// Array dimensions are `Len::Dynamic` here: code generation evaluates them itself.
    pub fn resolve(&mut self, ty: &TypeExpr, space: Space) -> Result<Ty, CodegenError> {
        match ty {
            TypeExpr::Named { name } => {
                if let Some(s) = Scalar::from_name(&name.name) {
                    return Ok(Ty::Scalar(s));
                }
                if name.name == "Range" {
                    return Ok(Ty::Range);
                }
                match self.aliases.get(&name.name).cloned() {
                    Some(alias) => self.resolve(&alias, space),
                    None => Err(CodegenError::internal(
                        format!("unknown type `{}`", name.name),
                        name.span,
                    )),
                }
            }
            TypeExpr::Record { fields, .. } => {
                let mut resolved = Vec::with_capacity(fields.len());
                for field in fields {
                    resolved.push(RecordField {
                        name: field.name.name.clone(),
                        ty: self.resolve(&field.ty, space)?,
                    });
                }
                Ok(Ty::Record(self.records.intern(resolved)))
            }
            TypeExpr::Array { elem, dims, .. } => Ok(Ty::Array {
                elem: Box::new(self.resolve(elem, space)?),
                dims: vec![Len::Dynamic; dims.len().max(1)],
                space,
            }),
        }
    }
}
