import Foundation
import TFLite

/// Test support for display-names locales: no model we fetch has a localized label file, so the tests
/// give one to a real model. `LabelledModels.model` adds TFLite metadata (metadata_schema.fbs) whose
/// first output names the given TENSOR_AXIS_LABELS files, packed as a zip appended to the model, as
/// tflite-support's metadata populator packs them; `gestureBundle` puts such a canned classifier
/// into the real gesture_recognizer.task.
public enum LabelledModels {
    /// A label file for output 0: its entry name, its locale (nil: none) and its labels, one a line.
    public struct LabelFile: Sendable {
        /// The file's name in the metadata and the appended zip.
        public let name: String
        /// The file's locale, nil for none.
        public let locale: String?
        /// The labels, written one a line.
        public let labels: [String]

        /// A label file named `name` in `locale` holding `labels`.
        public init(_ name: String, locale: String?, _ labels: [String]) {
            self.name = name
            self.locale = locale
            self.labels = labels
        }
    }

    /// The canned gestures in the canned classifier's output order (its default-locale labels).
    public static let cannedNames = [
        "None", "Closed_Fist", "Open_Palm", "Pointing_Up", "Thumb_Down",
        "Thumb_Up", "Victory", "ILoveYou",
    ]
    /// The same gestures in French, for a "fr" label file.
    public static let cannedFrench = [
        "Aucun", "Poing_fermé", "Paume_ouverte", "Index_levé", "Pouce_baissé",
        "Pouce_levé", "Victoire", "Je_t_aime",
    ]

    /// `model` (a .tflite without TFLITE_METADATA) with metadata giving its output 0 the label `files`,
    /// in order, and those files in a zip appended to it.
    public static func model(_ model: Data, labelFiles files: [LabelFile]) throws -> Data {
        let flatBuffer = try ModelRewriter.addingMetadata(metadata(files), to: [UInt8](model))
        let entries = files.map {
            ZipWriter.Entry.stored($0.name, Data(($0.labels.joined(separator: "\n") + "\n").utf8))
        }
        return Data(flatBuffer) + ZipWriter.archive(entries, startingAt: flatBuffer.count)
    }

    /// models/gesture_recognizer.task with its canned classifier given the label `files`; every other
    /// entry (and the entries' order) as in the real bundle.
    public static func gestureBundle(cannedLabelFiles files: [LabelFile]) throws -> Data {
        let outer = try ModelBundle(contentsOfFile: Fixture.modelPath("gesture_recognizer.task"))
        let innerName = "hand_gesture_recognizer.task", cannedName = "canned_gesture_classifier.tflite"
        let inner = try outer.bundle(named: innerName)
        let innerData = ZipWriter.archive(
            try inner.fileNames.map { name in
                let data = try inner.data(named: name)
                return ZipWriter.Entry.stored(name, name == cannedName ? try model(data, labelFiles: files) : data)
            })
        return ZipWriter.archive(
            try outer.fileNames.map { name in
                ZipWriter.Entry.stored(name, name == innerName ? innerData : try outer.data(named: name))
            })
    }

    /// The metadata FlatBuffer ("M001"): one subgraph, one input tensor, one output tensor with `files`.
    static func metadata(_ files: [LabelFile]) -> [UInt8] {
        typealias Model = MetadataSchema.ModelMetadata
        typealias SubGraph = MetadataSchema.SubGraphMetadata
        typealias Tensor = MetadataSchema.TensorMetadata
        typealias File = MetadataSchema.AssociatedFile
        var b = ForwardFlatBuffer(identifier: MetadataSchema.fileIdentifier)
        let root = b.table([
            (Model.name, .offset), (Model.subgraphMetadata, .offset), (Model.minParserVersion, .offset),
        ])
        b.link(root[Model.name]!, to: b.string("VisionTasks labelled test model"))
        let subgraphs = b.offsetVector(count: 1)
        b.link(root[Model.subgraphMetadata]!, to: subgraphs.vector)
        b.link(root[Model.minParserVersion]!, to: b.string("1.0.0"))
        let subgraph = b.table([(SubGraph.inputTensorMetadata, .offset), (SubGraph.outputTensorMetadata, .offset)])
        b.link(subgraphs.slots[0], to: subgraph.position)
        for (field, name) in [(SubGraph.inputTensorMetadata, "embedding"), (SubGraph.outputTensorMetadata, "scores")] {
            let tensors = b.offsetVector(count: 1)
            b.link(subgraph[field]!, to: tensors.vector)
            let hasFiles = field == .outputTensorMetadata
            let tensor = b.table(
                hasFiles ? [(Tensor.name, .offset), (Tensor.associatedFiles, .offset)] : [(Tensor.name, .offset)])
            b.link(tensors.slots[0], to: tensor.position)
            b.link(tensor[Tensor.name]!, to: b.string(name))
            guard hasFiles else { continue }
            let list = b.offsetVector(count: files.count)
            b.link(tensor[Tensor.associatedFiles]!, to: list.vector)
            for (fileSlot, file) in zip(list.slots, files) {
                var fields: [(File, ForwardFlatBuffer.Field)] = [
                    (.name, .offset), (.type, .int8(AssociatedFileType.tensorAxisLabels.rawValue)),
                ]
                if file.locale != nil { fields.append((.locale, .offset)) }
                let table = b.table(fields)
                b.link(fileSlot, to: table.position)
                b.link(table[File.name]!, to: b.string(file.name))
                if let locale = file.locale { b.link(table[File.locale]!, to: b.string(locale)) }
            }
        }
        return b.bytes
    }
}

/// Adds a TFLITE_METADATA entry to a TFLite model FlatBuffer without re-encoding it: a new root table
/// goes in front of the unchanged model (shifted by a multiple of 16, so its relative offsets and
/// alignment hold), pointing at the old tables and at new `buffers` and `metadata` vectors that list the
/// old entries plus one for the metadata.
enum ModelRewriter {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func addingMetadata(_ metadata: [UInt8], to old: [UInt8]) throws -> [UInt8] {
        func u32(_ at: Int) throws -> Int {
            guard at >= 0, at + 4 <= old.count else {
                throw Failure(description: "offset \(at) outside the \(old.count)-byte model")
            }
            return Int(old[at]) | Int(old[at + 1]) << 8 | Int(old[at + 2]) << 16 | Int(old[at + 3]) << 24
        }
        func u16(_ at: Int) throws -> Int { try u32(at) & 0xFFFF }
        guard old.count > 8, old[4..<8].elementsEqual(TFLiteSchema.fileIdentifier.utf8) else {
            throw Failure(description: "not a TFL3 model")
        }
        let table = try u32(0)
        let vtable = table - Int(Int32(truncatingIfNeeded: UInt32(try u32(table))))
        let fieldCount = (try u16(vtable) - 4) / 2
        typealias Model = TFLiteSchema.Model
        var fieldPositions: [Model: Int] = [:]
        for slot in 0..<fieldCount {
            let offset = try u16(vtable + 4 + 2 * slot)
            guard offset != 0 else { continue }
            // Fields after signature_defs are not known here.
            guard let field = Model(rawValue: slot) else {
                throw Failure(description: "unexpected Model field \(slot)")
            }
            fieldPositions[field] = table + offset
        }
        guard let buffersField = fieldPositions[.buffers] else {
            throw Failure(description: "the Model has no buffers")
        }
        func target(_ slot: Int) throws -> Int { slot + (try u32(slot)) }
        func elements(_ vector: Int) throws -> [Int] {
            try (0..<(try u32(vector))).map { try target(vector + 4 + 4 * $0) }
        }
        let oldBuffers = try elements(try target(buffersField))
        let oldMetadata = try fieldPositions[.metadata].map { try elements(try target($0)) } ?? []

        var b = ForwardFlatBuffer(identifier: TFLiteSchema.fileIdentifier)
        var fields: [(Model, ForwardFlatBuffer.Field)] = []
        let inOrder: [Model] = [
            .version, .operatorCodes, .subgraphs, .description, .buffers, .metadataBuffer, .metadata, .signatureDefs,
        ]
        for field in inOrder where fieldPositions[field] != nil || field == .metadata {
            fields.append((field, field == .version ? .uint32(UInt32(try u32(fieldPositions[.version]!))) : .offset))
        }
        let root = b.table(fields)
        var intoOld: [(slot: Int, oldTarget: Int)] = []
        for field in [Model.operatorCodes, .subgraphs, .description, .metadataBuffer, .signatureDefs] {
            if let position = fieldPositions[field] { intoOld.append((root[field]!, try target(position))) }
        }
        let buffers = b.offsetVector(count: oldBuffers.count + 1)
        b.link(root[Model.buffers]!, to: buffers.vector)
        intoOld += zip(buffers.slots, oldBuffers).map { ($0, $1) }
        let buffer = b.table([(TFLiteSchema.Buffer.data, .offset)])
        b.link(buffers.slots[oldBuffers.count], to: buffer.position)
        b.link(buffer[TFLiteSchema.Buffer.data]!, to: b.byteVector(metadata))
        let entries = b.offsetVector(count: oldMetadata.count + 1)
        b.link(root[Model.metadata]!, to: entries.vector)
        intoOld += zip(entries.slots, oldMetadata).map { ($0, $1) }
        typealias Entry = TFLiteSchema.Metadata
        let entry = b.table([(Entry.name, .offset), (Entry.buffer, .uint32(UInt32(oldBuffers.count)))])
        b.link(entries.slots[oldMetadata.count], to: entry.position)
        b.link(entry[Entry.name]!, to: b.string(ModelMetadata.entryName))
        b.pad(to: 16)
        let shift = b.bytes.count
        b.append(old)
        for link in intoOld { b.link(link.slot, to: shift + link.oldTarget) }
        return b.bytes
    }
}

/// A FlatBuffer written front to back: every table, vector and string is appended after whatever
/// refers to it, so each unsigned offset points forward as FlatBuffers requires. Offsets are written as
/// placeholders, then `link`ed once their target is known.
struct ForwardFlatBuffer {
    /// A table field: a 32-bit or 8-bit scalar, or an offset to link later.
    enum Field {
        case uint32(UInt32), int8(Int8), offset
    }

    /// A written table: where it starts, and where each field lies (by field id).
    struct Table {
        let position: Int
        let fields: [Int: Int]
        subscript(field: some FlatBufferField) -> Int? { fields[field.id] }
    }

    private(set) var bytes: [UInt8]

    /// A buffer with its root offset (linked by the first `table`) and file identifier.
    init(identifier: String) {
        bytes = [0, 0, 0, 0] + Array(identifier.utf8)
    }

    private var rootLinked = false

    mutating func pad(to alignment: Int, before extra: Int = 0) {
        while (bytes.count + extra) % alignment != 0 { bytes.append(0) }
    }

    /// Appends `raw` as it is (e.g. a whole FlatBuffer whose offsets are relative).
    mutating func append(_ raw: [UInt8]) { bytes += raw }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Points the offset at `slot` to `target`, which lies after it.
    mutating func link(_ slot: Int, to target: Int) {
        let value = UInt32(target - slot)
        for i in 0..<4 { bytes[slot + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }

    /// A vtable and its table of `fields` (4-byte fields first); the first table written is the root.
    mutating func table(_ schemaFields: [(some FlatBufferField, Field)]) -> Table {
        let fields = schemaFields.map { ($0.0.id, $0.1) }
        let wide = fields.filter { if case .int8 = $0.1 { return false } else { return true } }
        let narrow = fields.filter { if case .int8 = $0.1 { return true } else { return false } }
        var offsets: [Int: Int] = [:]
        var size = 4
        for (slot, _) in wide {
            offsets[slot] = size
            size += 4
        }
        for (slot, _) in narrow {
            offsets[slot] = size
            size += 1
        }
        let tableSize = (size + 3) / 4 * 4
        let slotCount = (fields.map(\.0).max() ?? -1) + 1
        pad(to: 4, before: 4 + 2 * slotCount)
        let vtable = bytes.count
        append(UInt16(4 + 2 * slotCount))
        append(UInt16(tableSize))
        for slot in 0..<slotCount { append(UInt16(offsets[slot] ?? 0)) }
        let position = bytes.count
        append(Int32(position - vtable))
        for (_, field) in wide {
            if case .uint32(let value) = field { append(value) } else { append(UInt32(0)) }
        }
        for (_, field) in narrow { if case .int8(let value) = field { append(value) } }
        pad(to: 4)
        if !rootLinked {
            rootLinked = true
            link(0, to: position)
        }
        return Table(position: position, fields: offsets.mapValues { position + $0 })
    }

    /// A vector of `count` offsets to link: its position and its element slots.
    mutating func offsetVector(count: Int) -> (vector: Int, slots: [Int]) {
        pad(to: 4)
        let vector = bytes.count
        append(UInt32(count))
        let slots = (0..<count).map { vector + 4 + 4 * $0 }
        bytes += [UInt8](repeating: 0, count: 4 * count)
        return (vector, slots)
    }

    /// A string (length, UTF-8 bytes, NUL); returns its position.
    mutating func string(_ text: String) -> Int {
        pad(to: 4)
        let position = bytes.count
        let utf8 = Array(text.utf8)
        append(UInt32(utf8.count))
        bytes += utf8 + [0]
        return position
    }

    /// A byte vector whose bytes start 16-aligned; returns its position.
    mutating func byteVector(_ data: [UInt8]) -> Int {
        pad(to: 16, before: 4)
        let position = bytes.count
        append(UInt32(data.count))
        bytes += data
        return position
    }
}
