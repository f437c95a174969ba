// The builtin operator codes of the TFLite schema (tensorflow/lite/schema/schema.fbs, enum BuiltinOperator).
// Names and values follow the schema; Swift names are the schema names in lower camel case.

/// A TFLite builtin operator code. Values the schema does not (yet) name are kept, with name "BUILTIN_<n>".
public struct BuiltinOperator: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The schema value (`BuiltinOperator` enum, int32).
    public let rawValue: Int32
    /// Wraps a schema value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The schema name, e.g. "CONV_2D".
    public var name: String {
        guard rawValue >= 0, Int(rawValue) < BuiltinOperator.names.count else { return "BUILTIN_\(rawValue)" }
        return BuiltinOperator.names[Int(rawValue)]
    }

    /// Same as `name`.
    public var description: String { name }

    /// Encodes as the schema value.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
    /// Decodes from the schema value.
    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int32.self) }

    // MARK: - Operator codes

    /// ADD (0).
    public static let add = BuiltinOperator(rawValue: 0)
    /// AVERAGE_POOL_2D (1).
    public static let averagePool2D = BuiltinOperator(rawValue: 1)
    /// CONCATENATION (2).
    public static let concatenation = BuiltinOperator(rawValue: 2)
    /// CONV_2D (3).
    public static let conv2D = BuiltinOperator(rawValue: 3)
    /// DEPTHWISE_CONV_2D (4).
    public static let depthwiseConv2D = BuiltinOperator(rawValue: 4)
    /// DEPTH_TO_SPACE (5).
    public static let depthToSpace = BuiltinOperator(rawValue: 5)
    /// DEQUANTIZE (6).
    public static let dequantize = BuiltinOperator(rawValue: 6)
    /// EMBEDDING_LOOKUP (7).
    public static let embeddingLookup = BuiltinOperator(rawValue: 7)
    /// FLOOR (8).
    public static let floor = BuiltinOperator(rawValue: 8)
    /// FULLY_CONNECTED (9).
    public static let fullyConnected = BuiltinOperator(rawValue: 9)
    /// HASHTABLE_LOOKUP (10).
    public static let hashtableLookup = BuiltinOperator(rawValue: 10)
    /// L2_NORMALIZATION (11).
    public static let l2Normalization = BuiltinOperator(rawValue: 11)
    /// L2_POOL_2D (12).
    public static let l2Pool2D = BuiltinOperator(rawValue: 12)
    /// LOCAL_RESPONSE_NORMALIZATION (13).
    public static let localResponseNormalization = BuiltinOperator(rawValue: 13)
    /// LOGISTIC (14).
    public static let logistic = BuiltinOperator(rawValue: 14)
    /// LSH_PROJECTION (15).
    public static let lshProjection = BuiltinOperator(rawValue: 15)
    /// LSTM (16).
    public static let lstm = BuiltinOperator(rawValue: 16)
    /// MAX_POOL_2D (17).
    public static let maxPool2D = BuiltinOperator(rawValue: 17)
    /// MUL (18).
    public static let mul = BuiltinOperator(rawValue: 18)
    /// RELU (19).
    public static let relu = BuiltinOperator(rawValue: 19)
    /// RELU_N1_TO_1 (20).
    public static let reluN1To1 = BuiltinOperator(rawValue: 20)
    /// RELU6 (21).
    public static let relu6 = BuiltinOperator(rawValue: 21)
    /// RESHAPE (22).
    public static let reshape = BuiltinOperator(rawValue: 22)
    /// RESIZE_BILINEAR (23).
    public static let resizeBilinear = BuiltinOperator(rawValue: 23)
    /// RNN (24).
    public static let rnn = BuiltinOperator(rawValue: 24)
    /// SOFTMAX (25).
    public static let softmax = BuiltinOperator(rawValue: 25)
    /// SPACE_TO_DEPTH (26).
    public static let spaceToDepth = BuiltinOperator(rawValue: 26)
    /// SVDF (27).
    public static let svdf = BuiltinOperator(rawValue: 27)
    /// TANH (28).
    public static let tanh = BuiltinOperator(rawValue: 28)
    /// CONCAT_EMBEDDINGS (29).
    public static let concatEmbeddings = BuiltinOperator(rawValue: 29)
    /// SKIP_GRAM (30).
    public static let skipGram = BuiltinOperator(rawValue: 30)
    /// CALL (31).
    public static let call = BuiltinOperator(rawValue: 31)
    /// CUSTOM (32).
    public static let custom = BuiltinOperator(rawValue: 32)
    /// EMBEDDING_LOOKUP_SPARSE (33).
    public static let embeddingLookupSparse = BuiltinOperator(rawValue: 33)
    /// PAD (34).
    public static let pad = BuiltinOperator(rawValue: 34)
    /// UNIDIRECTIONAL_SEQUENCE_RNN (35).
    public static let unidirectionalSequenceRnn = BuiltinOperator(rawValue: 35)
    /// GATHER (36).
    public static let gather = BuiltinOperator(rawValue: 36)
    /// BATCH_TO_SPACE_ND (37).
    public static let batchToSpaceND = BuiltinOperator(rawValue: 37)
    /// SPACE_TO_BATCH_ND (38).
    public static let spaceToBatchND = BuiltinOperator(rawValue: 38)
    /// TRANSPOSE (39).
    public static let transpose = BuiltinOperator(rawValue: 39)
    /// MEAN (40).
    public static let mean = BuiltinOperator(rawValue: 40)
    /// SUB (41).
    public static let sub = BuiltinOperator(rawValue: 41)
    /// DIV (42).
    public static let div = BuiltinOperator(rawValue: 42)
    /// SQUEEZE (43).
    public static let squeeze = BuiltinOperator(rawValue: 43)
    /// UNIDIRECTIONAL_SEQUENCE_LSTM (44).
    public static let unidirectionalSequenceLstm = BuiltinOperator(rawValue: 44)
    /// STRIDED_SLICE (45).
    public static let stridedSlice = BuiltinOperator(rawValue: 45)
    /// BIDIRECTIONAL_SEQUENCE_RNN (46).
    public static let bidirectionalSequenceRnn = BuiltinOperator(rawValue: 46)
    /// EXP (47).
    public static let exp = BuiltinOperator(rawValue: 47)
    /// TOPK_V2 (48).
    public static let topkV2 = BuiltinOperator(rawValue: 48)
    /// SPLIT (49).
    public static let split = BuiltinOperator(rawValue: 49)
    /// LOG_SOFTMAX (50).
    public static let logSoftmax = BuiltinOperator(rawValue: 50)
    /// DELEGATE (51).
    public static let delegate = BuiltinOperator(rawValue: 51)
    /// BIDIRECTIONAL_SEQUENCE_LSTM (52).
    public static let bidirectionalSequenceLstm = BuiltinOperator(rawValue: 52)
    /// CAST (53).
    public static let cast = BuiltinOperator(rawValue: 53)
    /// PRELU (54).
    public static let prelu = BuiltinOperator(rawValue: 54)
    /// MAXIMUM (55).
    public static let maximum = BuiltinOperator(rawValue: 55)
    /// ARG_MAX (56).
    public static let argMax = BuiltinOperator(rawValue: 56)
    /// MINIMUM (57).
    public static let minimum = BuiltinOperator(rawValue: 57)
    /// LESS (58).
    public static let less = BuiltinOperator(rawValue: 58)
    /// NEG (59).
    public static let neg = BuiltinOperator(rawValue: 59)
    /// PADV2 (60).
    public static let padv2 = BuiltinOperator(rawValue: 60)
    /// GREATER (61).
    public static let greater = BuiltinOperator(rawValue: 61)
    /// GREATER_EQUAL (62).
    public static let greaterEqual = BuiltinOperator(rawValue: 62)
    /// LESS_EQUAL (63).
    public static let lessEqual = BuiltinOperator(rawValue: 63)
    /// SELECT (64).
    public static let select = BuiltinOperator(rawValue: 64)
    /// SLICE (65).
    public static let slice = BuiltinOperator(rawValue: 65)
    /// SIN (66).
    public static let sin = BuiltinOperator(rawValue: 66)
    /// TRANSPOSE_CONV (67).
    public static let transposeConv = BuiltinOperator(rawValue: 67)
    /// SPARSE_TO_DENSE (68).
    public static let sparseToDense = BuiltinOperator(rawValue: 68)
    /// TILE (69).
    public static let tile = BuiltinOperator(rawValue: 69)
    /// EXPAND_DIMS (70).
    public static let expandDims = BuiltinOperator(rawValue: 70)
    /// EQUAL (71).
    public static let equal = BuiltinOperator(rawValue: 71)
    /// NOT_EQUAL (72).
    public static let notEqual = BuiltinOperator(rawValue: 72)
    /// LOG (73).
    public static let log = BuiltinOperator(rawValue: 73)
    /// SUM (74).
    public static let sum = BuiltinOperator(rawValue: 74)
    /// SQRT (75).
    public static let sqrt = BuiltinOperator(rawValue: 75)
    /// RSQRT (76).
    public static let rsqrt = BuiltinOperator(rawValue: 76)
    /// SHAPE (77).
    public static let shape = BuiltinOperator(rawValue: 77)
    /// POW (78).
    public static let pow = BuiltinOperator(rawValue: 78)
    /// ARG_MIN (79).
    public static let argMin = BuiltinOperator(rawValue: 79)
    /// FAKE_QUANT (80).
    public static let fakeQuant = BuiltinOperator(rawValue: 80)
    /// REDUCE_PROD (81).
    public static let reduceProd = BuiltinOperator(rawValue: 81)
    /// REDUCE_MAX (82).
    public static let reduceMax = BuiltinOperator(rawValue: 82)
    /// PACK (83).
    public static let pack = BuiltinOperator(rawValue: 83)
    /// LOGICAL_OR (84).
    public static let logicalOr = BuiltinOperator(rawValue: 84)
    /// ONE_HOT (85).
    public static let oneHot = BuiltinOperator(rawValue: 85)
    /// LOGICAL_AND (86).
    public static let logicalAnd = BuiltinOperator(rawValue: 86)
    /// LOGICAL_NOT (87).
    public static let logicalNot = BuiltinOperator(rawValue: 87)
    /// UNPACK (88).
    public static let unpack = BuiltinOperator(rawValue: 88)
    /// REDUCE_MIN (89).
    public static let reduceMin = BuiltinOperator(rawValue: 89)
    /// FLOOR_DIV (90).
    public static let floorDiv = BuiltinOperator(rawValue: 90)
    /// REDUCE_ANY (91).
    public static let reduceAny = BuiltinOperator(rawValue: 91)
    /// SQUARE (92).
    public static let square = BuiltinOperator(rawValue: 92)
    /// ZEROS_LIKE (93).
    public static let zerosLike = BuiltinOperator(rawValue: 93)
    /// FILL (94).
    public static let fill = BuiltinOperator(rawValue: 94)
    /// FLOOR_MOD (95).
    public static let floorMod = BuiltinOperator(rawValue: 95)
    /// RANGE (96).
    public static let range = BuiltinOperator(rawValue: 96)
    /// RESIZE_NEAREST_NEIGHBOR (97).
    public static let resizeNearestNeighbor = BuiltinOperator(rawValue: 97)
    /// LEAKY_RELU (98).
    public static let leakyRelu = BuiltinOperator(rawValue: 98)
    /// SQUARED_DIFFERENCE (99).
    public static let squaredDifference = BuiltinOperator(rawValue: 99)
    /// MIRROR_PAD (100).
    public static let mirrorPad = BuiltinOperator(rawValue: 100)
    /// ABS (101).
    public static let abs = BuiltinOperator(rawValue: 101)
    /// SPLIT_V (102).
    public static let splitV = BuiltinOperator(rawValue: 102)
    /// UNIQUE (103).
    public static let unique = BuiltinOperator(rawValue: 103)
    /// CEIL (104).
    public static let ceil = BuiltinOperator(rawValue: 104)
    /// REVERSE_V2 (105).
    public static let reverseV2 = BuiltinOperator(rawValue: 105)
    /// ADD_N (106).
    public static let addN = BuiltinOperator(rawValue: 106)
    /// GATHER_ND (107).
    public static let gatherND = BuiltinOperator(rawValue: 107)
    /// COS (108).
    public static let cos = BuiltinOperator(rawValue: 108)
    /// WHERE (109).
    public static let `where` = BuiltinOperator(rawValue: 109)
    /// RANK (110).
    public static let rank = BuiltinOperator(rawValue: 110)
    /// ELU (111).
    public static let elu = BuiltinOperator(rawValue: 111)
    /// REVERSE_SEQUENCE (112).
    public static let reverseSequence = BuiltinOperator(rawValue: 112)
    /// MATRIX_DIAG (113).
    public static let matrixDiag = BuiltinOperator(rawValue: 113)
    /// QUANTIZE (114).
    public static let quantize = BuiltinOperator(rawValue: 114)
    /// MATRIX_SET_DIAG (115).
    public static let matrixSetDiag = BuiltinOperator(rawValue: 115)
    /// ROUND (116).
    public static let round = BuiltinOperator(rawValue: 116)
    /// HARD_SWISH (117).
    public static let hardSwish = BuiltinOperator(rawValue: 117)
    /// IF (118).
    public static let ifOp = BuiltinOperator(rawValue: 118)
    /// WHILE (119).
    public static let whileOp = BuiltinOperator(rawValue: 119)
    /// NON_MAX_SUPPRESSION_V4 (120).
    public static let nonMaxSuppressionV4 = BuiltinOperator(rawValue: 120)
    /// NON_MAX_SUPPRESSION_V5 (121).
    public static let nonMaxSuppressionV5 = BuiltinOperator(rawValue: 121)
    /// SCATTER_ND (122).
    public static let scatterND = BuiltinOperator(rawValue: 122)
    /// SELECT_V2 (123).
    public static let selectV2 = BuiltinOperator(rawValue: 123)
    /// DENSIFY (124).
    public static let densify = BuiltinOperator(rawValue: 124)
    /// SEGMENT_SUM (125).
    public static let segmentSum = BuiltinOperator(rawValue: 125)
    /// BATCH_MATMUL (126).
    public static let batchMatmul = BuiltinOperator(rawValue: 126)
    /// PLACEHOLDER_FOR_GREATER_OP_CODES (127).
    public static let placeholderForGreaterOpCodes = BuiltinOperator(rawValue: 127)
    /// CUMSUM (128).
    public static let cumsum = BuiltinOperator(rawValue: 128)
    /// CALL_ONCE (129).
    public static let callOnce = BuiltinOperator(rawValue: 129)
    /// BROADCAST_TO (130).
    public static let broadcastTo = BuiltinOperator(rawValue: 130)
    /// RFFT2D (131).
    public static let rfft2D = BuiltinOperator(rawValue: 131)
    /// CONV_3D (132).
    public static let conv3D = BuiltinOperator(rawValue: 132)
    /// IMAG (133).
    public static let imag = BuiltinOperator(rawValue: 133)
    /// REAL (134).
    public static let real = BuiltinOperator(rawValue: 134)
    /// COMPLEX_ABS (135).
    public static let complexAbs = BuiltinOperator(rawValue: 135)
    /// HASHTABLE (136).
    public static let hashtable = BuiltinOperator(rawValue: 136)
    /// HASHTABLE_FIND (137).
    public static let hashtableFind = BuiltinOperator(rawValue: 137)
    /// HASHTABLE_IMPORT (138).
    public static let hashtableImport = BuiltinOperator(rawValue: 138)
    /// HASHTABLE_SIZE (139).
    public static let hashtableSize = BuiltinOperator(rawValue: 139)
    /// REDUCE_ALL (140).
    public static let reduceAll = BuiltinOperator(rawValue: 140)
    /// CONV_3D_TRANSPOSE (141).
    public static let conv3DTranspose = BuiltinOperator(rawValue: 141)
    /// VAR_HANDLE (142).
    public static let varHandle = BuiltinOperator(rawValue: 142)
    /// READ_VARIABLE (143).
    public static let readVariable = BuiltinOperator(rawValue: 143)
    /// ASSIGN_VARIABLE (144).
    public static let assignVariable = BuiltinOperator(rawValue: 144)
    /// BROADCAST_ARGS (145).
    public static let broadcastArgs = BuiltinOperator(rawValue: 145)
    /// RANDOM_STANDARD_NORMAL (146).
    public static let randomStandardNormal = BuiltinOperator(rawValue: 146)
    /// BUCKETIZE (147).
    public static let bucketize = BuiltinOperator(rawValue: 147)
    /// RANDOM_UNIFORM (148).
    public static let randomUniform = BuiltinOperator(rawValue: 148)
    /// MULTINOMIAL (149).
    public static let multinomial = BuiltinOperator(rawValue: 149)
    /// GELU (150).
    public static let gelu = BuiltinOperator(rawValue: 150)
    /// DYNAMIC_UPDATE_SLICE (151).
    public static let dynamicUpdateSlice = BuiltinOperator(rawValue: 151)
    /// RELU_0_TO_1 (152).
    public static let relu0To1 = BuiltinOperator(rawValue: 152)
    /// UNSORTED_SEGMENT_PROD (153).
    public static let unsortedSegmentProd = BuiltinOperator(rawValue: 153)
    /// UNSORTED_SEGMENT_MAX (154).
    public static let unsortedSegmentMax = BuiltinOperator(rawValue: 154)
    /// UNSORTED_SEGMENT_SUM (155).
    public static let unsortedSegmentSum = BuiltinOperator(rawValue: 155)
    /// ATAN2 (156).
    public static let atan2 = BuiltinOperator(rawValue: 156)
    /// UNSORTED_SEGMENT_MIN (157).
    public static let unsortedSegmentMin = BuiltinOperator(rawValue: 157)
    /// SIGN (158).
    public static let sign = BuiltinOperator(rawValue: 158)
    /// BITCAST (159).
    public static let bitcast = BuiltinOperator(rawValue: 159)
    /// BITWISE_XOR (160).
    public static let bitwiseXor = BuiltinOperator(rawValue: 160)
    /// RIGHT_SHIFT (161).
    public static let rightShift = BuiltinOperator(rawValue: 161)
    /// STABLEHLO_LOGISTIC (162).
    public static let stablehloLogistic = BuiltinOperator(rawValue: 162)
    /// STABLEHLO_ADD (163).
    public static let stablehloAdd = BuiltinOperator(rawValue: 163)
    /// STABLEHLO_DIVIDE (164).
    public static let stablehloDivide = BuiltinOperator(rawValue: 164)
    /// STABLEHLO_MULTIPLY (165).
    public static let stablehloMultiply = BuiltinOperator(rawValue: 165)
    /// STABLEHLO_MAXIMUM (166).
    public static let stablehloMaximum = BuiltinOperator(rawValue: 166)
    /// STABLEHLO_RESHAPE (167).
    public static let stablehloReshape = BuiltinOperator(rawValue: 167)
    /// STABLEHLO_CLAMP (168).
    public static let stablehloClamp = BuiltinOperator(rawValue: 168)
    /// STABLEHLO_CONCATENATE (169).
    public static let stablehloConcatenate = BuiltinOperator(rawValue: 169)
    /// STABLEHLO_BROADCAST_IN_DIM (170).
    public static let stablehloBroadcastInDim = BuiltinOperator(rawValue: 170)
    /// STABLEHLO_CONVOLUTION (171).
    public static let stablehloConvolution = BuiltinOperator(rawValue: 171)
    /// STABLEHLO_SLICE (172).
    public static let stablehloSlice = BuiltinOperator(rawValue: 172)
    /// STABLEHLO_CUSTOM_CALL (173).
    public static let stablehloCustomCall = BuiltinOperator(rawValue: 173)
    /// STABLEHLO_REDUCE (174).
    public static let stablehloReduce = BuiltinOperator(rawValue: 174)
    /// STABLEHLO_ABS (175).
    public static let stablehloAbs = BuiltinOperator(rawValue: 175)
    /// STABLEHLO_AND (176).
    public static let stablehloAnd = BuiltinOperator(rawValue: 176)
    /// STABLEHLO_COSINE (177).
    public static let stablehloCosine = BuiltinOperator(rawValue: 177)
    /// STABLEHLO_EXPONENTIAL (178).
    public static let stablehloExponential = BuiltinOperator(rawValue: 178)
    /// STABLEHLO_FLOOR (179).
    public static let stablehloFloor = BuiltinOperator(rawValue: 179)
    /// STABLEHLO_LOG (180).
    public static let stablehloLog = BuiltinOperator(rawValue: 180)
    /// STABLEHLO_MINIMUM (181).
    public static let stablehloMinimum = BuiltinOperator(rawValue: 181)
    /// STABLEHLO_NEGATE (182).
    public static let stablehloNegate = BuiltinOperator(rawValue: 182)
    /// STABLEHLO_OR (183).
    public static let stablehloOr = BuiltinOperator(rawValue: 183)
    /// STABLEHLO_POWER (184).
    public static let stablehloPower = BuiltinOperator(rawValue: 184)
    /// STABLEHLO_REMAINDER (185).
    public static let stablehloRemainder = BuiltinOperator(rawValue: 185)
    /// STABLEHLO_RSQRT (186).
    public static let stablehloRsqrt = BuiltinOperator(rawValue: 186)
    /// STABLEHLO_SELECT (187).
    public static let stablehloSelect = BuiltinOperator(rawValue: 187)
    /// STABLEHLO_SUBTRACT (188).
    public static let stablehloSubtract = BuiltinOperator(rawValue: 188)
    /// STABLEHLO_TANH (189).
    public static let stablehloTanh = BuiltinOperator(rawValue: 189)
    /// STABLEHLO_SCATTER (190).
    public static let stablehloScatter = BuiltinOperator(rawValue: 190)
    /// STABLEHLO_COMPARE (191).
    public static let stablehloCompare = BuiltinOperator(rawValue: 191)
    /// STABLEHLO_CONVERT (192).
    public static let stablehloConvert = BuiltinOperator(rawValue: 192)
    /// STABLEHLO_DYNAMIC_SLICE (193).
    public static let stablehloDynamicSlice = BuiltinOperator(rawValue: 193)
    /// STABLEHLO_DYNAMIC_UPDATE_SLICE (194).
    public static let stablehloDynamicUpdateSlice = BuiltinOperator(rawValue: 194)
    /// STABLEHLO_PAD (195).
    public static let stablehloPad = BuiltinOperator(rawValue: 195)
    /// STABLEHLO_IOTA (196).
    public static let stablehloIota = BuiltinOperator(rawValue: 196)
    /// STABLEHLO_DOT_GENERAL (197).
    public static let stablehloDotGeneral = BuiltinOperator(rawValue: 197)
    /// STABLEHLO_REDUCE_WINDOW (198).
    public static let stablehloReduceWindow = BuiltinOperator(rawValue: 198)
    /// STABLEHLO_SORT (199).
    public static let stablehloSort = BuiltinOperator(rawValue: 199)
    /// STABLEHLO_WHILE (200).
    public static let stablehloWhile = BuiltinOperator(rawValue: 200)
    /// STABLEHLO_GATHER (201).
    public static let stablehloGather = BuiltinOperator(rawValue: 201)
    /// STABLEHLO_TRANSPOSE (202).
    public static let stablehloTranspose = BuiltinOperator(rawValue: 202)
    /// DILATE (203).
    public static let dilate = BuiltinOperator(rawValue: 203)
    /// STABLEHLO_RNG_BIT_GENERATOR (204).
    public static let stablehloRngBitGenerator = BuiltinOperator(rawValue: 204)
    /// REDUCE_WINDOW (205).
    public static let reduceWindow = BuiltinOperator(rawValue: 205)
    /// STABLEHLO_COMPOSITE (206).
    public static let stablehloComposite = BuiltinOperator(rawValue: 206)
    /// STABLEHLO_SHIFT_LEFT (207).
    public static let stablehloShiftLeft = BuiltinOperator(rawValue: 207)
    /// STABLEHLO_CBRT (208).
    public static let stablehloCbrt = BuiltinOperator(rawValue: 208)
    /// STABLEHLO_CASE (209).
    public static let stablehloCase = BuiltinOperator(rawValue: 209)

    // MARK: - Schema names

    /// Schema names indexed by value.
    static let names: [String] = [
        "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
        "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION",
        "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D",
        "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR",
        "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "CONCAT_EMBEDDINGS",
        "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN",
        "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB",
        "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP",
        "TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST",
        "PRELU", "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG",
        "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE",
        "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL",
        "NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT", "SHAPE",
        "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK",
        "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN",
        "FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD",
        "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS",
        "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND",
        "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG",
        "QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF", "WHILE",
        "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM",
        "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO", "RFFT2D",
        "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND",
        "HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE",
        "ASSIGN_VARIABLE", "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL",
        "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX",
        "UNSORTED_SEGMENT_SUM",
        "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
        "STABLEHLO_LOGISTIC", "STABLEHLO_ADD", "STABLEHLO_DIVIDE", "STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM",
        "STABLEHLO_RESHAPE",
        "STABLEHLO_CLAMP", "STABLEHLO_CONCATENATE", "STABLEHLO_BROADCAST_IN_DIM", "STABLEHLO_CONVOLUTION",
        "STABLEHLO_SLICE", "STABLEHLO_CUSTOM_CALL",
        "STABLEHLO_REDUCE", "STABLEHLO_ABS", "STABLEHLO_AND", "STABLEHLO_COSINE", "STABLEHLO_EXPONENTIAL",
        "STABLEHLO_FLOOR",
        "STABLEHLO_LOG", "STABLEHLO_MINIMUM", "STABLEHLO_NEGATE", "STABLEHLO_OR", "STABLEHLO_POWER",
        "STABLEHLO_REMAINDER",
        "STABLEHLO_RSQRT", "STABLEHLO_SELECT", "STABLEHLO_SUBTRACT", "STABLEHLO_TANH", "STABLEHLO_SCATTER",
        "STABLEHLO_COMPARE",
        "STABLEHLO_CONVERT", "STABLEHLO_DYNAMIC_SLICE", "STABLEHLO_DYNAMIC_UPDATE_SLICE", "STABLEHLO_PAD",
        "STABLEHLO_IOTA", "STABLEHLO_DOT_GENERAL",
        "STABLEHLO_REDUCE_WINDOW", "STABLEHLO_SORT", "STABLEHLO_WHILE", "STABLEHLO_GATHER", "STABLEHLO_TRANSPOSE",
        "DILATE",
        "STABLEHLO_RNG_BIT_GENERATOR", "REDUCE_WINDOW", "STABLEHLO_COMPOSITE", "STABLEHLO_SHIFT_LEFT", "STABLEHLO_CBRT",
        "STABLEHLO_CASE",
    ]
}
