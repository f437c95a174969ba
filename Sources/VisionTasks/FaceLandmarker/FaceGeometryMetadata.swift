import Foundation
import VisionCore
import VisionErrors

/// The contents of `geometry_pipeline_metadata_landmarks.binarypb` (MediaPipe's
/// `GeometryPipelineMetadata` protobuf): the canonical face mesh's vertex positions in centimetres
/// and the per-vertex weights of the Procrustes landmark basis.
package struct FaceGeometryMetadata: Sendable {
    /// The canonical mesh's vertex positions (x, y, z), one per face-mesh landmark.
    let canonicalLandmarks: [SIMD3<Float>]
    /// The Procrustes weight of each vertex (0 for vertices outside the basis).
    let weights: [Float]

    /// Parses the serialized metadata; `name` names the file in error messages. Only meshes of
    /// MediaPipe's `VERTEX_PT` layout (x, y, z, u, v per vertex) and the landmark input source are
    /// accepted, as the face landmarker graph uses them.
    package init(data: Data, name: String) throws {
        let reader = ProtobufReader(data, context: name)
        var vertexBuffer: [Float] = []
        var vertexType: UInt64 = 0
        var basis: [(id: UInt64, weight: Float)] = []
        var sawMesh = false
        for field in try reader.fields() {
            switch field.number {
            case 1: // canonical_mesh: Mesh3d
                sawMesh = true
                let mesh = try reader.message(field.value, field: "canonical_mesh")
                for m in try mesh.fields() {
                    switch m.number {
                    case 1: vertexType = try mesh.varint(m.value, field: "vertex_type")
                    case 3: try mesh.appendFloats(m.value, to: &vertexBuffer, field: "vertex_buffer")
                    default: break
                    }
                }
            case 2: // procrustes_landmark_basis: WeightedLandmarkRef
                let ref = try reader.message(field.value, field: "procrustes_landmark_basis")
                var id: UInt64 = 0, weight: Float = 0
                for r in try ref.fields() {
                    switch r.number {
                    case 1: id = try ref.varint(r.value, field: "landmark_id")
                    case 2: weight = try ref.float(r.value, field: "weight")
                    default: break
                    }
                }
                basis.append((id, weight))
            case 3: // input_source: DEFAULT (0) and FACE_LANDMARK_PIPELINE (1) only
                let source = try reader.varint(field.value, field: "input_source")
                guard source <= 1 else {
                    throw VisionTasksError.invalidModel(
                        "\(name): geometry input source \(source) is not the face landmark pipeline")
                }
            default: break
            }
        }
        guard sawMesh else { throw VisionTasksError.invalidModel("\(name): no canonical mesh") }
        guard vertexType == 0 else {
            throw VisionTasksError.unsupportedModel("\(name): mesh vertex type \(vertexType)")
        }
        let vertexSize = 5
        guard !vertexBuffer.isEmpty, vertexBuffer.count % vertexSize == 0 else {
            throw VisionTasksError.invalidModel(
                "\(name): canonical mesh has \(vertexBuffer.count) floats, not whole x y z u v vertices")
        }
        let count = vertexBuffer.count / vertexSize
        canonicalLandmarks = (0..<count).map { i in
            SIMD3(vertexBuffer[i * vertexSize], vertexBuffer[i * vertexSize + 1], vertexBuffer[i * vertexSize + 2])
        }
        var weights = [Float](repeating: 0, count: count)
        for (id, weight) in basis {
            // Compared as UInt64: a hostile id of 2^63 or more must not trap in a conversion to Int.
            guard id < UInt64(count) else {
                throw VisionTasksError.invalidModel(
                    "\(name): procrustes_landmark_basis.landmark_id \(id) is outside the \(count)-vertex mesh")
            }
            guard weight >= 0, weight.isFinite else {
                throw VisionTasksError.invalidModel(
                    "\(name): procrustes_landmark_basis.weight \(weight) of landmark \(id) is negative or not finite")
            }
            weights[Int(id)] = weight
        }
        guard weights.reduce(0, +) > 0 else {
            throw VisionTasksError.invalidModel("\(name): empty Procrustes landmark basis")
        }
        self.weights = weights
    }
}
