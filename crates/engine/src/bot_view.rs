//! The view a bot is shown: its seat's view as the judge writes it for that game. A game whose
//! built-in bots or engine adapters read its view in this process hands it over typed, so they
//! need not parse it again; everything else sees it as JSON.

use serde::{Serialize, Serializer};
use std::any::Any;
use std::sync::Arc;

/// A game's own view type, as the bot protocol carries it.
pub trait TypedView: Any + std::fmt::Debug + Send + Sync {
    /// The view's `format`, which names its game.
    fn format(&self) -> &str;
    /// The view as compact JSON, the bytes a bot reads.
    fn to_json(&self) -> String;
}

/// The view a bot is shown.
#[derive(Clone, Debug)]
pub enum BotView {
    /// A view of the game's own type.
    Typed(Arc<dyn TypedView>),
    /// A view as JSON (as a bot reads it, or of a game that keeps none typed); `null` when the
    /// bot waived its views.
    Json(serde_json::Value),
}

impl BotView {
    /// The view's `format`, which names its game.
    pub fn format(&self) -> &str {
        match self {
            BotView::Typed(view) => view.format(),
            BotView::Json(view) => view["format"].as_str().unwrap_or_default(),
        }
    }

    /// The view as the game's own type `V`: the typed one, or the JSON read as `V`.
    pub fn typed<V: TypedView + serde::de::DeserializeOwned>(&self) -> Option<Arc<V>> {
        match self {
            BotView::Typed(view) => {
                let any: Arc<dyn Any + Send + Sync> = view.clone();
                any.downcast::<V>().ok()
            }
            BotView::Json(view) => serde_json::from_value(view.clone()).ok().map(Arc::new),
        }
    }

    /// The view as a JSON value.
    pub fn into_value(self) -> serde_json::Result<serde_json::Value> {
        match self {
            BotView::Typed(view) => serde_json::from_str(&view.to_json()),
            BotView::Json(view) => Ok(view),
        }
    }

    /// The view as JSON text.
    pub fn to_json(&self) -> String {
        match self {
            BotView::Typed(view) => view.to_json(),
            BotView::Json(view) => view.to_string(),
        }
    }
}

/// Two views are equal when a bot would read the same bytes.
impl PartialEq for BotView {
    fn eq(&self, other: &Self) -> bool {
        self.to_json() == other.to_json()
    }
}

impl Eq for BotView {}

impl Serialize for BotView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            BotView::Json(view) => view.serialize(s),
            BotView::Typed(view) => serde_json::value::RawValue::from_string(view.to_json())
                .map_err(serde::ser::Error::custom)?
                .serialize(s),
        }
    }
}

impl<'de> serde::Deserialize<'de> for BotView {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(BotView::Json)
    }
}

/// The schema names each game's view where the bot protocol's schema is written (the crate
/// that knows every game); alone, a view is any JSON value.
impl schemars::JsonSchema for BotView {
    fn schema_name() -> String {
        "BotView".into()
    }

    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        <serde_json::Value as schemars::JsonSchema>::json_schema(gen)
    }
}
