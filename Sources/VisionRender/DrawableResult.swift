import VisionTasks

/// A task result that knows its overlay: what the sample apps draw over the picture for it.
public protocol DrawableResult {
    /// Draws the result over `annotation`'s picture.
    func draw(on annotation: Annotation)
}

extension FaceDetectorResult: DrawableResult {
    /// Boxes, keypoints and scores, with tracking ids (video and live stream).
    public func draw(on annotation: Annotation) {
        annotation.draw(detections: detections, trackingIds: trackingIds)
    }
}

extension FaceLandmarkerResult: DrawableResult {
    /// The face meshes, with tracking ids (video and live stream) and head-pose axes (when head
    /// poses are output).
    public func draw(on annotation: Annotation) {
        annotation.draw(faceLandmarks: faceLandmarks, trackingIds: trackingIds, headPoses: headPoses)
    }
}

extension HandLandmarkerResult: DrawableResult {
    /// Hand skeletons labelled with their tracking id (video and live stream) and handedness.
    public func draw(on annotation: Annotation) {
        annotation.draw(handLandmarks: landmarks, handedness: handedness, trackingIds: trackingIds)
    }
}

extension GestureRecognizerResult: DrawableResult {
    /// Hand skeletons labelled with their tracking id (video and live stream), handedness and gesture.
    public func draw(on annotation: Annotation) {
        annotation.draw(handLandmarks: landmarks, handedness: handedness, gestures: gestures, trackingIds: trackingIds)
    }
}

extension PoseLandmarkerResult: DrawableResult {
    /// Tinted segmentation masks (when output), then body skeletons labelled with their tracking id
    /// (video and live stream).
    public func draw(on annotation: Annotation) {
        annotation.draw(poseLandmarks: landmarks, segmentationMasks: segmentationMasks, trackingIds: trackingIds)
    }
}
