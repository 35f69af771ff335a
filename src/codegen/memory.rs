//! Arrays in memory: element addresses (row-major), checked and unchecked loads and stores.
//!
//! `a[i]` is unchecked: an index outside the array is undefined behaviour, as in CUDA. `a[[i]]`
//! is checked: a read outside gives zero of the element type, a write outside is dropped; the
//! access is branched around, so nothing outside the array is ever touched.

use super::body::{ArrayRef, Body, Result, Var};
use super::error::CodegenError;
use crate::check::types::Ty;
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::span::Span;
use inkwell::types::BasicType;
use inkwell::values::{BasicValueEnum, InstructionOpcode, IntValue, Operand, PointerValue};
use inkwell::IntPredicate;

/// Where an element is: its linear index and, for a checked access, whether it is inside.
pub struct Element<'ctx> {
    pub index: IntValue<'ctx>,
    pub in_bounds: Option<IntValue<'ctx>>,
}

impl<'a, 'ctx> Body<'a, 'ctx> {
    /// The array `e` names: an array variable or parameter, or a row `a[i]` / `a[[i]]` of a
    /// two-dimensional one (a func's array argument, `pack(ca[B]) /~ range(0, cols)`).
    pub fn array(&mut self, e: &Expr) -> Result<ArrayRef<'ctx>> {
        if let Some(copy) = self.indexed_copies.get(&e.id) {
            return Ok(copy.clone());
        }
        match &e.kind {
            ExprKind::Name(name) => match self.lookup(&name.name) {
                Some(Var::Array(array)) => Ok(array.clone()),
                _ => Err(CodegenError::internal(
                    format!("`{}` is not an array", name.name),
                    e.span,
                )),
            },
            ExprKind::Index {
                base,
                indices,
                checked,
            } if indices.len() == 1 && matches!(self.ty_of(&indices[0]), Ty::Scalar(_)) => {
                self.row_array(base, &indices[0], *checked, e.span)
            }
            // The checker types no other expression as an array; an indexed computed vector
            // was copied to shared memory when its statement was prepared.
            _ => Err(CodegenError::internal(
                "an array that is neither a variable, a row nor an indexed vector's copy",
                e.span,
            )),
        }
    }

    /// Before a statement indexes a computed vector (`(x[[r]] * 2.0)[[i]]`, `(f /: v)[[j]]`):
    /// every element of it stored by its owner thread into a fresh `shared` array, which the
    /// index then reads like any `shared` array (barrier placement separates the stores from
    /// reads by other threads). An element may belong to any thread, so there is no cheaper
    /// general way (a shuffle reaches only the own warp). `kir-indexed-copies` decides which
    /// vectors are copied; vector variables need none: the ones a kernel indexes live in shared
    /// memory already (`kir-register-vectors`).
    pub fn copy_indexed_vector(&mut self, base: &Expr) -> Result<()> {
        if self.indexed_copies.contains_key(&base.id) || !self.indexed_vectors.contains(&base.span)
        {
            return Ok(());
        }
        let (elem, n) = match self.ty_of(base) {
            Ty::Vector {
                elem,
                len: crate::check::types::Len::Static(n),
                cols: None,
            } => ((**elem).clone(), *n),
            _ => {
                return Err(CodegenError::internal(
                    "kir-indexed-copies listed a vector without a compile-time length",
                    base.span,
                ))
            }
        };
        if self.lane_depth > 0 {
            return Err(CodegenError::internal(
                "a computed vector indexed in per-element code",
                base.span,
            ));
        }
        let copy = self.shared_array("indexed", &elem, &[n], base.span)?;
        // The copy is a statement of its own inside this one's preparation. It stores the whole
        // vector, also inside a grid-wide statement, whose window is the statement's positions
        // in its chunk, not the copy's.
        let window = self.grid_window.take();
        let stored = self.init_array(
            crate::kir::Consumer::Copy(base.span),
            copy.clone(),
            base,
            base.span,
        );
        self.grid_window = window;
        stored?;
        self.indexed_copies.insert(base.id, copy);
        Ok(())
    }

    /// Row `i` of two-dimensional `base` as a one-dimensional array of `cols` elements, at
    /// `base + i * cols`. Checked (`a[[i]]`), a row outside the array is a row of no elements:
    /// every checked read of it gives zero and every checked write is dropped, as for the
    /// elements of `a[[i, j]]`.
    fn row_array(
        &mut self,
        base: &Expr,
        index: &Expr,
        checked: bool,
        span: Span,
    ) -> Result<ArrayRef<'ctx>> {
        let array = self.array(base)?;
        let [rows, cols] = array.dims[..] else {
            return Err(CodegenError::internal(
                "a row of an array that is not 2-D",
                span,
            ));
        };
        let signed = self.scalar_of(index)?.is_signed();
        let row = self.expr(index)?.into_int_value();
        let row64 = self.index64(row, signed)?;
        let cols64 = self.index64(cols, true)?;
        let first = self.b.build_int_mul(row64, cols64, "row.first")?;
        let elem = self.mem_type(&array.elem, span)?;
        // SAFETY: a plain (not in-bounds) GEP: an out-of-range row's address is computed but
        // never dereferenced (checked: the row is empty; unchecked: the user's undefined
        // behaviour, as for any unchecked access).
        let ptr = unsafe { self.b.build_gep(elem, array.ptr, &[first], "row")? };
        let len = if checked {
            let inside = self.b.build_int_compare(
                IntPredicate::ULT,
                row64,
                self.index64(rows, true)?,
                "row.inside",
            )?;
            self.b
                .build_select(inside, cols, self.i32(0), "row.len")?
                .into_int_value()
        } else {
            cols
        };
        Ok(ArrayRef {
            name: array.name.clone(),
            ptr,
            elem: array.elem.clone(),
            dims: vec![len],
        })
    }

    /// An index value as `i64`, extended by the signedness of its type.
    pub fn index64(&self, v: IntValue<'ctx>, signed: bool) -> Result<IntValue<'ctx>> {
        let i64t = self.cx.context.i64_type();
        Ok(match v.get_type().get_bit_width() {
            64 => v,
            _ if signed => self.b.build_int_s_extend(v, i64t, "idx")?,
            _ => self.b.build_int_z_extend(v, i64t, "idx")?,
        })
    }

    /// The linear index of `array[indices...]` (each index already `i64`): row-major.
    pub fn element(
        &self,
        array: &ArrayRef<'ctx>,
        indices: &[IntValue<'ctx>],
        checked: bool,
        span: Span,
    ) -> Result<Element<'ctx>> {
        if indices.is_empty() || indices.len() > array.dims.len() {
            return Err(CodegenError::internal("wrong number of subscripts", span));
        }
        let mut linear = self.i64(0);
        let mut in_bounds: Option<IntValue> = None;
        for (d, index) in indices.iter().enumerate() {
            let extent = self.index64(array.dims[d], true)?;
            if d > 0 {
                linear = self.b.build_int_mul(linear, extent, "")?;
            }
            let address_index = if checked {
                self.nonnegative_index(*index)?
            } else {
                *index
            };
            linear = self.b.build_int_add(linear, address_index, "")?;
            if checked {
                // Unsigned compare: a negative index is huge and fails too.
                let inside =
                    self.b
                        .build_int_compare(IntPredicate::ULT, *index, extent, "inside")?;
                in_bounds = Some(match in_bounds {
                    Some(prev) => self.b.build_and(prev, inside, "")?,
                    None => inside,
                });
            }
        }
        // A subscript of a row of a two-dimensional array: the row's first element.
        for d in indices.len()..array.dims.len() {
            let extent = self.index64(array.dims[d], true)?;
            linear = self.b.build_int_mul(linear, extent, "")?;
        }
        Ok(Element {
            index: linear,
            in_bounds,
        })
    }

    /// A checked access's index for its address: the `i32` source of a sign-extended index,
    /// zero-extended with `nneg`. The address is used only where the unsigned bounds check
    /// passed, i.e. where the index is non-negative and both extensions agree (elsewhere `nneg`
    /// makes it poison, which nothing uses: the access is branched around). Zero extension lets
    /// ptxas form the 64-bit offset in one `IMAD.WIDE.U32`, where a sign extension needs the
    /// sign shifted in by hand (`SHF.R.S32.HI`, `LEA.HI.X`).
    fn nonnegative_index(&self, index: IntValue<'ctx>) -> Result<IntValue<'ctx>> {
        let sext = index
            .as_instruction()
            .filter(|i| i.get_opcode() == InstructionOpcode::SExt);
        let Some(Operand::Value(BasicValueEnum::IntValue(narrow))) =
            sext.and_then(|i| i.get_operand(0))
        else {
            return Ok(index);
        };
        let wide = self
            .b
            .build_int_z_extend(narrow, index.get_type(), "idx.nneg")?;
        if let Some(zext) = wide.as_instruction() {
            zext.set_non_negative_flag(true)
                .map_err(|e| CodegenError::Internal {
                    message: format!("zext nneg: {e:?}"),
                    span: None,
                })?;
        }
        Ok(wide)
    }

    pub fn element_ptr(
        &self,
        array: &ArrayRef<'ctx>,
        index: IntValue<'ctx>,
        span: Span,
    ) -> Result<PointerValue<'ctx>> {
        let elem = self.mem_type(&array.elem, span)?;
        // SAFETY: the index stays inside the array for unchecked accesses by the language's rules
        // (breaking them is the user's undefined behaviour) and is branched around otherwise.
        Ok(unsafe {
            self.b
                .build_in_bounds_gep(elem, array.ptr, &[index], "elem")?
        })
    }

    /// Loads an element; outside a checked access's bounds the result is zero.
    pub fn load_element(
        &mut self,
        array: &ArrayRef<'ctx>,
        at: &Element<'ctx>,
        span: Span,
    ) -> Result<BasicValueEnum<'ctx>> {
        let Some(in_bounds) = at.in_bounds else {
            return self.load_at(array, at.index, span);
        };
        let context = self.cx.context;
        let before = self
            .b
            .get_insert_block()
            .ok_or_else(|| CodegenError::internal("no block", span))?;
        let load_bb = context.append_basic_block(self.function, "checked.load");
        let join = context.append_basic_block(self.function, "checked.end");
        self.b.build_conditional_branch(in_bounds, load_bb, join)?;
        self.b.position_at_end(load_bb);
        let v = self.load_at(array, at.index, span)?;
        let load_end = self
            .b
            .get_insert_block()
            .ok_or_else(|| CodegenError::internal("no block", span))?;
        self.b.build_unconditional_branch(join)?;
        self.b.position_at_end(join);
        let zero = self.zero_of(&array.elem, span)?;
        let phi = self.b.build_phi(zero.get_type(), "checked")?;
        phi.add_incoming(&[(&zero, before), (&v, load_end)]);
        Ok(phi.as_basic_value())
    }

    fn load_at(
        &self,
        array: &ArrayRef<'ctx>,
        index: IntValue<'ctx>,
        span: Span,
    ) -> Result<BasicValueEnum<'ctx>> {
        let ptr = self.element_ptr(array, index, span)?;
        let raw = self
            .b
            .build_load(self.mem_type(&array.elem, span)?, ptr, "load")?;
        self.to_reg(raw, &array.elem)
    }

    /// Stores an element; outside a checked access's bounds nothing happens.
    pub fn store_element(
        &mut self,
        array: &ArrayRef<'ctx>,
        at: &Element<'ctx>,
        v: BasicValueEnum<'ctx>,
        span: Span,
    ) -> Result<()> {
        let elem = array.elem.clone();
        let store = |this: &mut Self| -> Result<()> {
            let ptr = this.element_ptr(array, at.index, span)?;
            let v = this.to_mem(v, &elem)?;
            this.b.build_store(ptr, v)?;
            Ok(())
        };
        match at.in_bounds {
            Some(in_bounds) => self.build_if(in_bounds, &mut |this| store(this)),
            None => store(self),
        }
    }

    /// `a[i]`, `a[i, j]`, `a[[i]]` read as a uniform value (every thread reads it).
    pub fn index_uniform(
        &mut self,
        e: &Expr,
        base: &Expr,
        indices: &[Expr],
        checked: bool,
    ) -> Result<BasicValueEnum<'ctx>> {
        if !self.ty_of(e).is_uniform() {
            return Err(CodegenError::internal(
                "a block vector where a uniform value was expected",
                e.span,
            ));
        }
        self.copy_indexed_vector(base)?;
        let array = self.array(base)?;
        let at = self.subscripts(&array, indices, checked, e.span)?;
        self.touch(e.span)?;
        self.load_element(&array, &at, e.span)
    }

    /// Evaluates scalar subscripts and finds the element.
    pub fn subscripts(
        &mut self,
        array: &ArrayRef<'ctx>,
        indices: &[Expr],
        checked: bool,
        span: Span,
    ) -> Result<Element<'ctx>> {
        let mut values = Vec::with_capacity(indices.len());
        for index in indices {
            let scalar = self.scalar_of(index)?;
            if !scalar.is_integer() || !matches!(self.ty_of(index), Ty::Scalar(_)) {
                return Err(CodegenError::internal(
                    "a subscript that is not an integer",
                    index.span,
                ));
            }
            let v = self.expr(index)?.into_int_value();
            values.push(self.index64(v, scalar.is_signed())?);
        }
        self.element(array, &values, checked, span)
    }

    /// Declares a block's shared array of `dims` elements of `elem` (one per block,
    /// uninitialised). `name` is the user's name for it (or what the compiler made it for).
    pub fn shared_array(
        &mut self,
        name: &str,
        elem: &Ty,
        dims: &[u64],
        span: Span,
    ) -> Result<ArrayRef<'ctx>> {
        let count: u64 = dims.iter().product();
        let elem_ty = self.mem_type(elem, span)?;
        // More than 2^32 elements is far past every target's shared memory: the declaration
        // is recorded with its true size, so the kernel's shared-memory check (E0812) names it,
        // and the global gets one element (the kernel is rejected before its code is used).
        let count32 = u32::try_from(count.max(1)).ok();
        let array_ty = elem_ty.array_type(count32.unwrap_or(1));
        let bytes = match count32 {
            Some(_) => self.cx.target_data.get_abi_size(&array_ty),
            None => count.saturating_mul(self.cx.target_data.get_abi_size(&elem_ty)),
        };
        let symbol = self.fresh_name(name);
        let global = self.cx.module.add_global(
            array_ty,
            Some(inkwell::AddressSpace::from(super::types::SHARED)),
            &symbol,
        );
        global.set_linkage(inkwell::module::Linkage::Internal);
        global.set_initializer(&array_ty.get_undef());
        global.set_alignment(16);
        self.shared_decls.push(super::limits::SharedDecl {
            name: name.to_string(),
            bytes,
        });
        let dim_values = dims.iter().map(|d| self.i32(*d as i64)).collect();
        Ok(ArrayRef {
            name: name.to_string(),
            ptr: global.as_pointer_value(),
            elem: elem.clone(),
            dims: dim_values,
        })
    }

    /// `i32` length of the first dimension.
    pub fn length(&self, array: &ArrayRef<'ctx>) -> IntValue<'ctx> {
        array.dims[0]
    }
}
