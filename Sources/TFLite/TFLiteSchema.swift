// The parts of TensorFlow Lite's model schema (tensorflow/lite/schema/schema.fbs, version 3) that VisionTasks
// reads (`TFLiteModel`, `BuiltinOptions`, `Sparsity`) or writes (`ClassifierModelWriter`), declared once for both.
// A table is an enum of its fields, each case named as the schema names the field (in lower camel case) and
// valued with the field's id, its declaration order in the .fbs; a union or an enum lists the tags and values
// used. tools/checks/check_schema_ids.py checks every number here against LiteRT's generated schema.

/// TensorFlow Lite's model schema (schema.fbs): its file identifier, tables, unions and enums.
package enum TFLiteSchema {
    /// The file identifier of a .tflite FlatBuffer (`file_identifier "TFL3"`).
    package static let fileIdentifier = "TFL3"
    /// The schema version a model declares in `Model.version`.
    package static let version: UInt32 = 3

    /// table `Model`, the root.
    package enum Model: Int, FlatBufferField {
        /// `version`
        case version = 0
        /// `operator_codes`
        case operatorCodes = 1
        /// `subgraphs`
        case subgraphs = 2
        /// `description`
        case description = 3
        /// `buffers`
        case buffers = 4
        /// `metadata_buffer`
        case metadataBuffer = 5
        /// `metadata`
        case metadata = 6
        /// `signature_defs`
        case signatureDefs = 7
    }

    /// table `OperatorCode`.
    package enum OperatorCode: Int, FlatBufferField {
        /// `deprecated_builtin_code`
        case deprecatedBuiltinCode = 0
        /// `custom_code`
        case customCode = 1
        /// `version`
        case version = 2
        /// `builtin_code`
        case builtinCode = 3
    }

    /// table `SubGraph`.
    package enum SubGraph: Int, FlatBufferField {
        /// `tensors`
        case tensors = 0
        /// `inputs`
        case inputs = 1
        /// `outputs`
        case outputs = 2
        /// `operators`
        case operators = 3
        /// `name`
        case name = 4
    }

    /// table `Tensor`.
    package enum Tensor: Int, FlatBufferField {
        /// `shape`
        case shape = 0
        /// `type`
        case type = 1
        /// `buffer`
        case buffer = 2
        /// `name`
        case name = 3
        /// `quantization`
        case quantization = 4
        /// `is_variable`
        case isVariable = 5
        /// `sparsity`
        case sparsity = 6
        /// `shape_signature`
        case shapeSignature = 7
    }

    /// table `QuantizationParameters`.
    package enum QuantizationParameters: Int, FlatBufferField {
        /// `min`
        case min = 0
        /// `max`
        case max = 1
        /// `scale`
        case scale = 2
        /// `zero_point`
        case zeroPoint = 3
        /// `quantized_dimension`
        case quantizedDimension = 6
    }

    /// table `SparsityParameters`.
    package enum SparsityParameters: Int, FlatBufferField {
        /// `traversal_order`
        case traversalOrder = 0
        /// `block_map`
        case blockMap = 1
        /// `dim_metadata`
        case dimMetadata = 2
    }

    /// table `DimensionMetadata`.
    package enum DimensionMetadata: Int, FlatBufferField {
        /// `format`
        case format = 0
        /// `dense_size`
        case denseSize = 1
        /// `array_segments_type`
        case arraySegmentsType = 2
        /// `array_segments`
        case arraySegments = 3
        /// `array_indices_type`
        case arrayIndicesType = 4
        /// `array_indices`
        case arrayIndices = 5
    }

    /// enum `DimensionType` (byte).
    package enum DimensionType: Int8 {
        /// `DENSE`
        case dense = 0
        /// `SPARSE_CSR`
        case sparseCsr = 1
    }

    /// union `SparseIndexVector`: the tag of `array_segments` and `array_indices`.
    package enum SparseIndexVector: UInt8 {
        /// `NONE`
        case none = 0
        /// `Int32Vector`
        case int32Vector = 1
        /// `Uint16Vector`
        case uint16Vector = 2
        /// `Uint8Vector`
        case uint8Vector = 3
    }

    /// table `Int32Vector`.
    package enum Int32Vector: Int, FlatBufferField {
        /// `values`
        case values = 0
    }

    /// table `Uint16Vector`.
    package enum Uint16Vector: Int, FlatBufferField {
        /// `values`
        case values = 0
    }

    /// table `Uint8Vector`.
    package enum Uint8Vector: Int, FlatBufferField {
        /// `values`
        case values = 0
    }

    /// table `Buffer`.
    package enum Buffer: Int, FlatBufferField {
        /// `data`
        case data = 0
        /// `offset`
        case offset = 1
        /// `size`
        case size = 2
    }

    /// table `Metadata`.
    package enum Metadata: Int, FlatBufferField {
        /// `name`
        case name = 0
        /// `buffer`
        case buffer = 1
    }

    /// table `Operator`.
    package enum Operator: Int, FlatBufferField {
        /// `opcode_index`
        case opcodeIndex = 0
        /// `inputs`
        case inputs = 1
        /// `outputs`
        case outputs = 2
        /// `builtin_options_type`
        case builtinOptionsType = 3
        /// `builtin_options`
        case builtinOptions = 4
        /// `custom_options`
        case customOptions = 5
    }

    /// union `BuiltinOptions`: the tags of the options tables VisionTasks reads or writes.
    package enum BuiltinOptions: UInt8 {
        /// `NONE`
        case none = 0
        /// `Conv2DOptions`
        case conv2DOptions = 1
        /// `DepthwiseConv2DOptions`
        case depthwiseConv2DOptions = 2
        /// `Pool2DOptions`
        case pool2DOptions = 5
        /// `FullyConnectedOptions`
        case fullyConnectedOptions = 8
        /// `SoftmaxOptions`
        case softmaxOptions = 9
        /// `ConcatenationOptions`
        case concatenationOptions = 10
        /// `AddOptions`
        case addOptions = 11
        /// `ResizeBilinearOptions`
        case resizeBilinearOptions = 15
        /// `ReshapeOptions`
        case reshapeOptions = 17
        /// `MulOptions`
        case mulOptions = 21
        /// `PadOptions`
        case padOptions = 22
        /// `GatherOptions`
        case gatherOptions = 23
        /// `TransposeOptions`
        case transposeOptions = 26
        /// `ReducerOptions`
        case reducerOptions = 27
        /// `SubOptions`
        case subOptions = 28
        /// `DivOptions`
        case divOptions = 29
        /// `SqueezeOptions`
        case squeezeOptions = 30
        /// `StridedSliceOptions`
        case stridedSliceOptions = 32
        /// `DequantizeOptions`
        case dequantizeOptions = 38
        /// `MaximumMinimumOptions`
        case maximumMinimumOptions = 39
        /// `NegOptions`
        case negOptions = 42
        /// `PadV2Options`
        case padV2Options = 43
        /// `UnpackOptions`
        case unpackOptions = 64
        /// `LeakyReluOptions`
        case leakyReluOptions = 75
        /// `SquaredDifferenceOptions`
        case squaredDifferenceOptions = 76
        /// `DepthToSpaceOptions`
        case depthToSpaceOptions = 94
    }

    /// table `Conv2DOptions`.
    package enum Conv2DOptions: Int, FlatBufferField {
        /// `padding`
        case padding = 0
        /// `stride_w`
        case strideW = 1
        /// `stride_h`
        case strideH = 2
        /// `fused_activation_function`
        case fusedActivationFunction = 3
        /// `dilation_wfactor`
        case dilationWFactor = 4
        /// `dilation_hfactor`
        case dilationHFactor = 5
    }

    /// table `DepthwiseConv2DOptions`.
    package enum DepthwiseConv2DOptions: Int, FlatBufferField {
        /// `padding`
        case padding = 0
        /// `stride_w`
        case strideW = 1
        /// `stride_h`
        case strideH = 2
        /// `depth_multiplier`
        case depthMultiplier = 3
        /// `fused_activation_function`
        case fusedActivationFunction = 4
        /// `dilation_wfactor`
        case dilationWFactor = 5
        /// `dilation_hfactor`
        case dilationHFactor = 6
    }

    /// table `Pool2DOptions`.
    package enum Pool2DOptions: Int, FlatBufferField {
        /// `padding`
        case padding = 0
        /// `stride_w`
        case strideW = 1
        /// `stride_h`
        case strideH = 2
        /// `filter_width`
        case filterWidth = 3
        /// `filter_height`
        case filterHeight = 4
        /// `fused_activation_function`
        case fusedActivationFunction = 5
    }

    /// table `FullyConnectedOptions`.
    package enum FullyConnectedOptions: Int, FlatBufferField {
        /// `fused_activation_function`
        case fusedActivationFunction = 0
        /// `weights_format`
        case weightsFormat = 1
        /// `keep_num_dims`
        case keepNumDims = 2
        /// `asymmetric_quantize_inputs`
        case asymmetricQuantizeInputs = 3
    }

    /// table `SoftmaxOptions`.
    package enum SoftmaxOptions: Int, FlatBufferField {
        /// `beta`
        case beta = 0
    }

    /// table `ConcatenationOptions`.
    package enum ConcatenationOptions: Int, FlatBufferField {
        /// `axis`
        case axis = 0
        /// `fused_activation_function`
        case fusedActivationFunction = 1
    }

    /// table `AddOptions`.
    package enum AddOptions: Int, FlatBufferField {
        /// `fused_activation_function`
        case fusedActivationFunction = 0
    }

    /// table `ResizeBilinearOptions` (fields 0 and 1 are deprecated).
    package enum ResizeBilinearOptions: Int, FlatBufferField {
        /// `align_corners`
        case alignCorners = 2
        /// `half_pixel_centers`
        case halfPixelCenters = 3
    }

    /// table `ReshapeOptions`.
    package enum ReshapeOptions: Int, FlatBufferField {
        /// `new_shape`
        case newShape = 0
    }

    /// table `MulOptions`.
    package enum MulOptions: Int, FlatBufferField {
        /// `fused_activation_function`
        case fusedActivationFunction = 0
    }

    /// table `GatherOptions`.
    package enum GatherOptions: Int, FlatBufferField {
        /// `axis`
        case axis = 0
        /// `batch_dims`
        case batchDims = 1
    }

    /// table `ReducerOptions`.
    package enum ReducerOptions: Int, FlatBufferField {
        /// `keep_dims`
        case keepDims = 0
    }

    /// table `SubOptions`.
    package enum SubOptions: Int, FlatBufferField {
        /// `fused_activation_function`
        case fusedActivationFunction = 0
    }

    /// table `DivOptions`.
    package enum DivOptions: Int, FlatBufferField {
        /// `fused_activation_function`
        case fusedActivationFunction = 0
    }

    /// table `SqueezeOptions`.
    package enum SqueezeOptions: Int, FlatBufferField {
        /// `squeeze_dims`
        case squeezeDims = 0
    }

    /// table `StridedSliceOptions`.
    package enum StridedSliceOptions: Int, FlatBufferField {
        /// `begin_mask`
        case beginMask = 0
        /// `end_mask`
        case endMask = 1
        /// `ellipsis_mask`
        case ellipsisMask = 2
        /// `new_axis_mask`
        case newAxisMask = 3
        /// `shrink_axis_mask`
        case shrinkAxisMask = 4
        /// `offset`
        case offset = 5
    }

    /// table `UnpackOptions`.
    package enum UnpackOptions: Int, FlatBufferField {
        /// `num`
        case num = 0
        /// `axis`
        case axis = 1
    }

    /// table `LeakyReluOptions`.
    package enum LeakyReluOptions: Int, FlatBufferField {
        /// `alpha`
        case alpha = 0
    }

    /// table `DepthToSpaceOptions`.
    package enum DepthToSpaceOptions: Int, FlatBufferField {
        /// `block_size`
        case blockSize = 0
    }
}
