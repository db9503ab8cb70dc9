//! mini-C's scalar types and the two integer models.
//!
//! Data model: ILP32 (as in the SV-COMP tasks): `char` 8 bits (signed),
//! `short` 16, `int` and `long` 32, `long long` 64.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How integers behave during a run (chosen per run, see `docs/minic.md`, "Integer models").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IntModel {
    /// Unbounded mathematical integers: no wrap-around (the playground's default).
    #[default]
    Math,
    /// C's fixed-width two's-complement / modular unsigned arithmetic (SV-COMP).
    C,
}

impl IntModel {
    /// The name used on the command line: `math` or `c`.
    pub fn name(self) -> &'static str {
        match self {
            IntModel::Math => "math",
            IntModel::C => "c",
        }
    }
}

impl std::str::FromStr for IntModel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "math" => Ok(IntModel::Math),
            "c" => Ok(IntModel::C),
            _ => Err(format!("unknown integer model `{s}` (expected `math` or `c`)")),
        }
    }
}

/// An integer scalar type of mini-C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntType {
    /// `_Bool`: 0 or 1.
    Bool,
    /// `char` (signed in ILP32 on x86).
    Char,
    /// `signed char`.
    SChar,
    /// `unsigned char`.
    UChar,
    /// `short`.
    Short,
    /// `unsigned short`.
    UShort,
    /// `int`.
    Int,
    /// `unsigned int`.
    UInt,
    /// `long` (32 bits in ILP32).
    Long,
    /// `unsigned long`.
    ULong,
    /// `long long`.
    LongLong,
    /// `unsigned long long`.
    ULongLong,
}

impl IntType {
    /// Width in bits (ILP32). `_Bool` counts as 1.
    pub fn bits(self) -> u32 {
        use IntType::*;
        match self {
            Bool => 1,
            Char | SChar | UChar => 8,
            Short | UShort => 16,
            Int | UInt | Long | ULong => 32,
            LongLong | ULongLong => 64,
        }
    }

    /// Whether the type has negative values.
    pub fn is_signed(self) -> bool {
        use IntType::*;
        matches!(self, Char | SChar | Short | Int | Long | LongLong)
    }

    /// Smallest value of the type under the C model.
    pub fn min_value(self) -> i128 {
        if self.is_signed() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }

    /// Largest value of the type under the C model.
    pub fn max_value(self) -> i128 {
        if self == IntType::Bool {
            1
        } else if self.is_signed() {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }

    /// C's conversion of an integer to this type: `_Bool` becomes 0/1,
    /// other types wrap modulo 2^bits into their range.
    pub fn wrap(self, v: i128) -> i128 {
        if self == IntType::Bool {
            return (v != 0) as i128;
        }
        let bits = self.bits();
        let m = 1i128 << bits;
        let mut r = v.rem_euclid(m);
        if self.is_signed() && r > self.max_value() {
            r -= m;
        }
        r
    }

    /// Conversion under an integer model: under `math` only `_Bool` normalizes.
    pub fn convert(self, v: i128, model: IntModel) -> i128 {
        match model {
            IntModel::C => self.wrap(v),
            IntModel::Math => {
                if self == IntType::Bool {
                    (v != 0) as i128
                } else {
                    v
                }
            }
        }
    }

    /// Integer conversion rank (C11 6.3.1.1), used by the usual arithmetic conversions.
    pub fn rank(self) -> u8 {
        use IntType::*;
        match self {
            Bool => 0,
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            LongLong | ULongLong => 5,
        }
    }

    /// Integer promotion: types narrower than `int` become `int`.
    pub fn promote(self) -> IntType {
        if self.rank() < IntType::Int.rank() {
            IntType::Int
        } else {
            self
        }
    }

    /// The unsigned type of the same rank.
    pub fn to_unsigned(self) -> IntType {
        use IntType::*;
        match self {
            Char | SChar => UChar,
            Short => UShort,
            Int => UInt,
            Long => ULong,
            LongLong => ULongLong,
            t => t,
        }
    }

    /// The usual arithmetic conversions (C11 6.3.1.8) for a binary operator.
    pub fn usual_arithmetic(a: IntType, b: IntType) -> IntType {
        let (a, b) = (a.promote(), b.promote());
        if a == b {
            return a;
        }
        if a.is_signed() == b.is_signed() {
            return if a.rank() >= b.rank() { a } else { b };
        }
        let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
        if u.rank() >= s.rank() {
            u
        } else if s.bits() > u.bits() {
            s
        } else {
            s.to_unsigned()
        }
    }

    /// The C spelling, e.g. `unsigned int`.
    pub fn c_name(self) -> &'static str {
        use IntType::*;
        match self {
            Bool => "_Bool",
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
        }
    }
}

impl fmt::Display for IntType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}

/// A mini-C type as written in a declaration: an integer scalar, or `void`
/// (function results and casts only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Type {
    /// `void`: function results and casts only.
    Void,
    /// An integer scalar.
    Int(IntType),
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Void => f.write_str("void"),
            Type::Int(t) => t.fmt(f),
        }
    }
}

/// A type of mini-C with memory: what a declaration, a cast or `sizeof`
/// names. Scalars are [`CType::Int`]; pointers, fixed-size arrays and
/// structs are objects in memory (`docs/minic.md`, "Memory").
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CType {
    /// `void`: function results, casts and the pointee of `void *`.
    Void,
    /// An integer scalar.
    Int(IntType),
    /// A pointer to a value of the inner type.
    Pointer(Box<CType>),
    /// A fixed-size array: element type and number of elements.
    Array(Box<CType>, u64),
    /// A struct, by its tag (`struct node` → `node`); its fields are in
    /// [`crate::ast::TranslationUnit::structs`].
    Struct(String),
}

impl CType {
    /// The scalar type `t`.
    pub fn int(t: IntType) -> CType {
        CType::Int(t)
    }

    /// A pointer to `self`.
    pub fn pointer_to(self) -> CType {
        CType::Pointer(Box::new(self))
    }

    /// The old scalar view: `Some` for `void` and integer types.
    pub fn scalar(&self) -> Option<Type> {
        match self {
            CType::Void => Some(Type::Void),
            CType::Int(t) => Some(Type::Int(*t)),
            _ => None,
        }
    }

    /// Whether the type is a pointer.
    pub fn is_pointer(&self) -> bool {
        matches!(self, CType::Pointer(_))
    }
}

impl From<Type> for CType {
    fn from(t: Type) -> CType {
        match t {
            Type::Void => CType::Void,
            Type::Int(i) => CType::Int(i),
        }
    }
}

impl fmt::Display for CType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CType::Void => f.write_str("void"),
            CType::Int(t) => t.fmt(f),
            CType::Pointer(inner) => write!(f, "{inner} *"),
            CType::Array(inner, n) => write!(f, "{inner}[{n}]"),
            CType::Struct(name) => write!(f, "struct {name}"),
        }
    }
}

/// The fields of a struct in declaration order (name, type).
pub type Fields = Vec<(String, CType)>;

/// Looks a struct's fields up by its tag (`None`: no such struct).
pub type FieldLookup<'a> = &'a dyn Fn(&str) -> Option<Fields>;

/// The bytes of a pointer: 4 in ILP32, the data model of mini-C.
pub const POINTER_BYTES: u64 = 4;

/// Size and alignment of types under ILP32, given the struct definitions
/// (`fields` looks a struct's fields up by tag): what `sizeof` answers and
/// where a struct's fields start.
pub struct Layout<'a> {
    /// The fields of a struct by tag; `None` for an undefined struct.
    pub fields: FieldLookup<'a>,
}

impl Layout<'_> {
    /// `sizeof(ty)` in bytes; `None` for an incomplete type (undefined
    /// struct, `void`, a struct that contains itself).
    pub fn size(&self, ty: &CType) -> Option<u64> {
        self.size_depth(ty, 0)
    }

    fn size_depth(&self, ty: &CType, depth: u32) -> Option<u64> {
        if depth > 64 {
            return None;
        }
        match ty {
            CType::Void => None,
            CType::Int(t) => Some(int_bytes(*t)),
            CType::Pointer(_) => Some(POINTER_BYTES),
            CType::Array(inner, n) => self.size_depth(inner, depth + 1)?.checked_mul(*n),
            CType::Struct(name) => {
                let fields = (self.fields)(name)?;
                let mut offset = 0u64;
                let mut align = 1u64;
                for (_, fty) in &fields {
                    let a = self.align_depth(fty, depth + 1)?;
                    align = align.max(a);
                    offset = offset.div_ceil(a) * a;
                    offset = offset.checked_add(self.size_depth(fty, depth + 1)?)?;
                }
                Some(offset.div_ceil(align).max(1) * align)
            }
        }
    }

    fn align_depth(&self, ty: &CType, depth: u32) -> Option<u64> {
        if depth > 64 {
            return None;
        }
        match ty {
            CType::Void => None,
            CType::Int(t) => Some(int_bytes(*t).min(4)),
            CType::Pointer(_) => Some(POINTER_BYTES),
            CType::Array(inner, _) => self.align_depth(inner, depth + 1),
            CType::Struct(name) => {
                let fields = (self.fields)(name)?;
                let mut align = 1;
                for (_, fty) in &fields {
                    align = self.align_depth(fty, depth + 1)?.max(align);
                }
                Some(align)
            }
        }
    }

    /// The byte offset and type of field `field` of `struct name`.
    pub fn field(&self, name: &str, field: &str) -> Option<(u64, CType)> {
        let fields = (self.fields)(name)?;
        let mut offset = 0u64;
        for (fname, fty) in fields {
            let a = self.align_depth(&fty, 1)?;
            offset = offset.div_ceil(a) * a;
            if fname == field {
                return Some((offset, fty));
            }
            offset = offset.checked_add(self.size_depth(&fty, 1)?)?;
        }
        None
    }
}

/// `sizeof` of an integer type in bytes (ILP32; `_Bool` is one byte).
pub fn int_bytes(t: IntType) -> u64 {
    (t.bits() as u64).div_ceil(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_follows_twos_complement() {
        assert_eq!(IntType::UInt.wrap(-1), 4294967295);
        assert_eq!(IntType::Int.wrap(2147483648), -2147483648);
        assert_eq!(IntType::UChar.wrap(256 + 7), 7);
        assert_eq!(IntType::Char.wrap(200), -56);
        assert_eq!(IntType::Bool.wrap(-5), 1);
        assert_eq!(IntType::UInt.convert(-1, IntModel::Math), -1);
    }

    #[test]
    fn usual_arithmetic_conversions() {
        use IntType::*;
        assert_eq!(IntType::usual_arithmetic(Int, UInt), UInt);
        assert_eq!(IntType::usual_arithmetic(Char, Short), Int);
        assert_eq!(IntType::usual_arithmetic(LongLong, UInt), LongLong);
        assert_eq!(IntType::usual_arithmetic(Long, UInt), ULong);
    }
}
