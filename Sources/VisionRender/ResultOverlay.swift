import VisionTasks

extension OverlaidResult {
    /// Draws the result over `annotation`'s picture: each of its `overlayParts` in turn, as the
    /// sample apps overlay them.
    public func draw(on annotation: Annotation) {
        for part in overlayParts {
            annotation.draw(part)
        }
    }
}

extension Annotation {
    /// Draws one part of a result, the same way for every task that declares one.
    public func draw(_ part: OverlayPart) {
        switch part {
        case .detections(let detections, let trackingIds):
            draw(detections: detections, trackingIds: trackingIds)
        case .faceMeshes(let faces, let trackingIds, let headPoses):
            draw(faceLandmarks: faces, trackingIds: trackingIds, headPoses: headPoses)
        case .hands(let hands, let categories, let trackingIds):
            draw(handLandmarks: hands, categories: categories, trackingIds: trackingIds)
        case .poses(let poses, let trackingIds):
            draw(poseLandmarks: poses, trackingIds: trackingIds)
        case .masks(let masks):
            draw(masks: masks)
        }
    }
}
