//! The Octagon CPA (being implemented by helper octagon-cpa).
