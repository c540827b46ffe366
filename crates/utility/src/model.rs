//! Which model a utility call asks for: the engine's small one, the
//! feature's setting, or the engine's own choice.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Model<'a> {
    /// The engine's small model (a feature with no model setting).
    Small,
    /// The feature's model setting.
    Named(&'a str),
    /// Whatever the engine's own arguments choose: a named engine asked a
    /// question of its own (a reviewer) answers on the model it is
    /// configured with.
    EngineDefault,
}
