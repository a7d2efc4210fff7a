//! The subset of `onnx.proto` (IR version 8) the lab writes and checks, with the field numbers
//! of the official schema, encoded and decoded with `prost`: fields it does not declare (node
//! attributes, raw tensor data, ...) are skipped when a foreign model is decoded.

use prost::Message;

/// `TensorProto.DataType` of 32-bit floats.
pub(crate) const FLOAT: i32 = 1;

#[derive(Clone, PartialEq, Message)]
pub(crate) struct ModelProto {
    #[prost(int64, tag = "1")]
    pub(crate) ir_version: i64,
    #[prost(string, tag = "2")]
    pub(crate) producer_name: String,
    #[prost(string, tag = "3")]
    pub(crate) producer_version: String,
    #[prost(string, tag = "6")]
    pub(crate) doc_string: String,
    #[prost(message, optional, tag = "7")]
    pub(crate) graph: Option<GraphProto>,
    #[prost(message, repeated, tag = "8")]
    pub(crate) opset_import: Vec<OperatorSetIdProto>,
    #[prost(message, repeated, tag = "14")]
    pub(crate) metadata_props: Vec<StringStringEntryProto>,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct OperatorSetIdProto {
    #[prost(string, tag = "1")]
    pub(crate) domain: String,
    #[prost(int64, tag = "2")]
    pub(crate) version: i64,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct StringStringEntryProto {
    #[prost(string, tag = "1")]
    pub(crate) key: String,
    #[prost(string, tag = "2")]
    pub(crate) value: String,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct GraphProto {
    #[prost(message, repeated, tag = "1")]
    pub(crate) node: Vec<NodeProto>,
    #[prost(string, tag = "2")]
    pub(crate) name: String,
    #[prost(message, repeated, tag = "5")]
    pub(crate) initializer: Vec<TensorProto>,
    #[prost(message, repeated, tag = "11")]
    pub(crate) input: Vec<ValueInfoProto>,
    #[prost(message, repeated, tag = "12")]
    pub(crate) output: Vec<ValueInfoProto>,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct NodeProto {
    #[prost(string, repeated, tag = "1")]
    pub(crate) input: Vec<String>,
    #[prost(string, repeated, tag = "2")]
    pub(crate) output: Vec<String>,
    #[prost(string, tag = "3")]
    pub(crate) name: String,
    #[prost(string, tag = "4")]
    pub(crate) op_type: String,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct TensorProto {
    #[prost(int64, repeated, tag = "1")]
    pub(crate) dims: Vec<i64>,
    /// 1 = FLOAT.
    #[prost(int32, tag = "2")]
    pub(crate) data_type: i32,
    #[prost(float, repeated, tag = "4")]
    pub(crate) float_data: Vec<f32>,
    #[prost(string, tag = "8")]
    pub(crate) name: String,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct ValueInfoProto {
    #[prost(string, tag = "1")]
    pub(crate) name: String,
    #[prost(message, optional, tag = "2")]
    pub(crate) r#type: Option<TypeProto>,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct TypeProto {
    #[prost(message, optional, tag = "1")]
    pub(crate) tensor_type: Option<TensorTypeProto>,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct TensorTypeProto {
    #[prost(int32, tag = "1")]
    pub(crate) elem_type: i32,
    #[prost(message, optional, tag = "2")]
    pub(crate) shape: Option<TensorShapeProto>,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct TensorShapeProto {
    #[prost(message, repeated, tag = "1")]
    pub(crate) dim: Vec<Dimension>,
}

#[derive(Clone, PartialEq, Message)]
pub(crate) struct Dimension {
    #[prost(int64, optional, tag = "1")]
    pub(crate) dim_value: Option<i64>,
    #[prost(string, optional, tag = "2")]
    pub(crate) dim_param: Option<String>,
}
