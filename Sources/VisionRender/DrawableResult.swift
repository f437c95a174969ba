import VisionTasks

/// A task result that knows its overlay: what the sample apps draw over the picture for it.
public protocol DrawableResult {
    /// Draws the result over `annotation`'s picture.
    func draw(on annotation: Annotation)
}

extension FaceDetectorResult: DrawableResult {
    /// Boxes, keypoints and scores.
    public func draw(on annotation: Annotation) {
        annotation.draw(detections: detections)
    }
}

extension FaceLandmarkerResult: DrawableResult {
    /// The face meshes.
    public func draw(on annotation: Annotation) {
        annotation.draw(faceLandmarks: faceLandmarks)
    }
}

extension HandLandmarkerResult: DrawableResult {
    /// Hand skeletons labelled with their handedness.
    public func draw(on annotation: Annotation) {
        annotation.draw(handLandmarks: landmarks, handedness: handedness)
    }
}

extension GestureRecognizerResult: DrawableResult {
    /// Hand skeletons labelled with their handedness and gesture.
    public func draw(on annotation: Annotation) {
        annotation.draw(handLandmarks: landmarks, handedness: handedness, gestures: gestures)
    }
}
