/// What MediaPipe's `FaceBlendshapesGraph` feeds to `face_blendshapes.tflite` and how it names the
/// model's 52 outputs.
package enum FaceBlendshapes {
    /// The 146 face-mesh landmarks (of 478) the blendshapes model reads, in its input order.
    static let landmarkSubset: [Int] = [
        0, 1, 4, 5, 6, 7, 8, 10, 13, 14, 17, 21, 33, 37, 39, 40, 46, 52, 53, 54, 55, 58, 61, 63, 65, 66,
        67, 70, 78, 80, 81, 82, 84, 87, 88, 91, 93, 95, 103, 105, 107, 109, 127, 132, 133, 136, 144,
        145, 146, 148, 149, 150, 152, 153, 154, 155, 157, 158, 159, 160, 161, 162, 163, 168, 172, 173,
        176, 178, 181, 185, 191, 195, 197, 234, 246, 249, 251, 263, 267, 269, 270, 276, 282, 283, 284,
        285, 288, 291, 293, 295, 296, 297, 300, 308, 310, 311, 312, 314, 317, 318, 321, 323, 324, 332,
        334, 336, 338, 356, 361, 362, 365, 373, 374, 375, 377, 378, 379, 380, 381, 382, 384, 385, 386,
        387, 388, 389, 390, 397, 398, 400, 402, 405, 409, 415, 454, 466, 468, 469, 470, 471, 472, 473,
        474, 475, 476, 477,
    ]

    /// The 52 blendshape categories, in the model's output order (the category index is the position).
    package static let names: [String] = [
        "_neutral", "browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight",
        "cheekPuff", "cheekSquintLeft", "cheekSquintRight", "eyeBlinkLeft", "eyeBlinkRight",
        "eyeLookDownLeft", "eyeLookDownRight", "eyeLookInLeft", "eyeLookInRight", "eyeLookOutLeft",
        "eyeLookOutRight", "eyeLookUpLeft", "eyeLookUpRight", "eyeSquintLeft", "eyeSquintRight",
        "eyeWideLeft", "eyeWideRight", "jawForward", "jawLeft", "jawOpen", "jawRight", "mouthClose",
        "mouthDimpleLeft", "mouthDimpleRight", "mouthFrownLeft", "mouthFrownRight", "mouthFunnel",
        "mouthLeft", "mouthLowerDownLeft", "mouthLowerDownRight", "mouthPressLeft", "mouthPressRight",
        "mouthPucker", "mouthRight", "mouthRollLower", "mouthRollUpper", "mouthShrugLower",
        "mouthShrugUpper", "mouthSmileLeft", "mouthSmileRight", "mouthStretchLeft", "mouthStretchRight",
        "mouthUpperUpLeft", "mouthUpperUpRight", "noseSneerLeft", "noseSneerRight",
    ]

    /// Writes the model input: the subset's x and y in pixels of the `imageWidth`×`imageHeight` frame
    /// (MediaPipe's `LandmarksToTensorCalculator` with the image size), 146 × 2 floats.
    static func writeInput(
        _ landmarks: [SIMD3<Float>], imageWidth: Int, imageHeight: Int,
        into buffer: UnsafeMutableBufferPointer<Float>
    ) {
        let w = Float(imageWidth), h = Float(imageHeight)
        for (i, index) in landmarkSubset.enumerated() {
            buffer[2 * i] = landmarks[index].x * w
            buffer[2 * i + 1] = landmarks[index].y * h
        }
    }
}
