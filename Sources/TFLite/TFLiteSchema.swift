// The parts of TensorFlow Lite's model schema (tensorflow/lite/schema/schema.fbs, version 3) that VisionTasks reads
// (`TFLiteModel`, `BuiltinOptions`, `Sparsity`) or writes (`ClassifierModelWriter`), declared once for both. A table
// is an enum whose cases are its fields in the order the .fbs declares them (deprecated ones included), named as the
// schema names them in lower camel case: a case's raw value is the field's id. A union or an enum lists the tags or
// values used. tools/checks/check_schema_ids.py checks every number here against LiteRT's generated schema.

/// TensorFlow Lite's model schema (schema.fbs): its file identifier, tables, unions and enums.
package enum TFLiteSchema {
    /// The file identifier of a .tflite FlatBuffer (`file_identifier "TFL3"`).
    package static let fileIdentifier = "TFL3"
    /// The schema version a model declares in `Model.version`.
    package static let version: UInt32 = 3

    /// Table `Model`, the root.
    package enum Model: Int, FlatBufferField {
        case version, operatorCodes, subgraphs, description, buffers, metadataBuffer, metadata, signatureDefs
    }

    /// Table `OperatorCode`: `deprecated_builtin_code` (int8) holds codes below 127, `builtin_code` every code.
    package enum OperatorCode: Int, FlatBufferField { case deprecatedBuiltinCode, customCode, version, builtinCode }

    /// Table `SubGraph`.
    package enum SubGraph: Int, FlatBufferField { case tensors, inputs, outputs, operators, name }

    /// Table `Tensor`.
    package enum Tensor: Int, FlatBufferField {
        case shape, type, buffer, name, quantization, isVariable, sparsity, shapeSignature
    }

    /// Table `QuantizationParameters`.
    package enum QuantizationParameters: Int, FlatBufferField {
        case min, max, scale, zeroPoint, detailsType, details, quantizedDimension
    }

    /// Table `SparsityParameters`.
    package enum SparsityParameters: Int, FlatBufferField { case traversalOrder, blockMap, dimMetadata }

    /// Table `DimensionMetadata`; `array_segments` and `array_indices` are `SparseIndexVector` unions.
    package enum DimensionMetadata: Int, FlatBufferField {
        case format, denseSize, arraySegmentsType, arraySegments, arrayIndicesType, arrayIndices
    }

    /// Enum `DimensionType`: the format of a `DimensionMetadata`.
    package enum DimensionType: Int8 { case dense = 0, sparseCsr = 1 }

    /// Union `SparseIndexVector`: which table holds a sparse level's `values`.
    package enum SparseIndexVector: UInt8 { case none = 0, int32Vector = 1, uint16Vector = 2, uint8Vector = 3 }

    /// Table `Int32Vector`.
    package enum Int32Vector: Int, FlatBufferField { case values }

    /// Table `Uint16Vector`.
    package enum Uint16Vector: Int, FlatBufferField { case values }

    /// Table `Uint8Vector`.
    package enum Uint8Vector: Int, FlatBufferField { case values }

    /// Table `Buffer`: its `data`, or for a large model the `offset` and `size` of its bytes after the FlatBuffer.
    package enum Buffer: Int, FlatBufferField { case data, offset, size }

    /// Table `Metadata`: a named entry of `Model.metadata`, its bytes in a buffer.
    package enum Metadata: Int, FlatBufferField { case name, buffer }

    /// Table `Operator`; `builtin_options` is a `BuiltinOptions` union.
    package enum Operator: Int, FlatBufferField {
        case opcodeIndex, inputs, outputs, builtinOptionsType, builtinOptions, customOptions
    }

    /// Union `BuiltinOptions`: the tags of the options tables VisionTasks reads or writes (the tables of the ones with
    /// fields follow).
    package enum BuiltinOptions: UInt8 {
        case none = 0, conv2DOptions = 1, depthwiseConv2DOptions = 2, pool2DOptions = 5, fullyConnectedOptions = 8
        case softmaxOptions = 9, concatenationOptions = 10, addOptions = 11, resizeBilinearOptions = 15
        case reshapeOptions = 17, mulOptions = 21, padOptions = 22, gatherOptions = 23, transposeOptions = 26
        case reducerOptions = 27, subOptions = 28, divOptions = 29, squeezeOptions = 30, stridedSliceOptions = 32
        case dequantizeOptions = 38, maximumMinimumOptions = 39, negOptions = 42, padV2Options = 43, unpackOptions = 64
        case leakyReluOptions = 75, squaredDifferenceOptions = 76, depthToSpaceOptions = 94
    }

    /// Table `Conv2DOptions`.
    package enum Conv2DOptions: Int, FlatBufferField {
        case padding, strideW, strideH, fusedActivationFunction, dilationWFactor, dilationHFactor
    }

    /// Table `DepthwiseConv2DOptions`.
    package enum DepthwiseConv2DOptions: Int, FlatBufferField {
        case padding, strideW, strideH, depthMultiplier, fusedActivationFunction, dilationWFactor, dilationHFactor
    }

    /// Table `Pool2DOptions`.
    package enum Pool2DOptions: Int, FlatBufferField {
        case padding, strideW, strideH, filterWidth, filterHeight, fusedActivationFunction
    }

    /// Table `FullyConnectedOptions`.
    package enum FullyConnectedOptions: Int, FlatBufferField {
        case fusedActivationFunction, weightsFormat, keepNumDims, asymmetricQuantizeInputs
    }

    /// Table `SoftmaxOptions`.
    package enum SoftmaxOptions: Int, FlatBufferField { case beta }

    /// Table `ConcatenationOptions`.
    package enum ConcatenationOptions: Int, FlatBufferField { case axis, fusedActivationFunction }

    /// Table `AddOptions`.
    package enum AddOptions: Int, FlatBufferField { case fusedActivationFunction }

    /// Table `ResizeBilinearOptions` (`new_height` and `new_width` are deprecated).
    package enum ResizeBilinearOptions: Int, FlatBufferField {
        case newHeight, newWidth, alignCorners, halfPixelCenters
    }

    /// Table `ReshapeOptions`.
    package enum ReshapeOptions: Int, FlatBufferField { case newShape }

    /// Table `GatherOptions`.
    package enum GatherOptions: Int, FlatBufferField { case axis, batchDims }

    /// Table `MulOptions`.
    package enum MulOptions: Int, FlatBufferField { case fusedActivationFunction }

    /// Table `StridedSliceOptions`.
    package enum StridedSliceOptions: Int, FlatBufferField {
        case beginMask, endMask, ellipsisMask, newAxisMask, shrinkAxisMask, offset
    }

    /// Table `ReducerOptions`.
    package enum ReducerOptions: Int, FlatBufferField { case keepDims }

    /// Table `UnpackOptions`.
    package enum UnpackOptions: Int, FlatBufferField { case num, axis }

    /// Table `SubOptions`.
    package enum SubOptions: Int, FlatBufferField { case fusedActivationFunction }

    /// Table `DepthToSpaceOptions`.
    package enum DepthToSpaceOptions: Int, FlatBufferField { case blockSize }

    /// Table `DivOptions`.
    package enum DivOptions: Int, FlatBufferField { case fusedActivationFunction }

    /// Table `SqueezeOptions`.
    package enum SqueezeOptions: Int, FlatBufferField { case squeezeDims }

    /// Table `LeakyReluOptions`.
    package enum LeakyReluOptions: Int, FlatBufferField { case alpha }
}
