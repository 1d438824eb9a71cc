//! # kifu-export: game records as tables
//!
//! Arrow record batches, Parquet, CSV and JSON Lines built from the `kifu` DOMs. (Being built:
//! see the columnar export issue.)
