// TEMPORARY (not to be committed): stands in for the TFLite writer until the tflite-writer branch lands.
import Foundation
public enum ClassifierLayer: Sendable, Equatable {
    case scaleShift(scale: [Float], shift: [Float])
    case relu
    case dense(weights: [Float], bias: [Float], outputCount: Int)
    case softmax
}
public struct ClassifierModelDescription: Sendable { var name, description, inputName, inputDescription, outputName, outputDescription: String }
public enum ClassifierModelWriter {
    public static func write(inputCount: Int, layers: [ClassifierLayer], labels: [String], scoreThreshold: Float?, description: ClassifierModelDescription) throws -> Data { Data() }
}
public enum ModelBundleWriter { public static func bundle(_ entries: [(name: String, data: Data)]) throws -> Data { Data() } }
