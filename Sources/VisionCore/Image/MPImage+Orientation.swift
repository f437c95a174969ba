extension MPImage {
    /// Converts a rectangle in the upright image's normalised coordinates to the stored pixels'
    /// normalised coordinates: the rectangle MediaPipe is given for the same crop when the frame's
    /// rotation is passed as `rotation_degrees` (the whole upright image becomes MediaPipe's
    /// rotated full-frame rectangle). Throws for mirrored orientations.
    package func bufferRect(fromUpright rect: NormalizedRect) throws -> NormalizedRect {
        let quarterTurn = Double.pi / 2
        switch orientation {
        case .up:
            return rect
        case .down:
            return NormalizedRect(
                xCenter: 1 - rect.xCenter, yCenter: 1 - rect.yCenter,
                width: rect.width, height: rect.height,
                rotation: Float(Double(rect.rotation) + Double.pi))
        case .right:
            return NormalizedRect(
                xCenter: rect.yCenter, yCenter: 1 - rect.xCenter,
                width: rect.width * Float(width) / Float(bufferWidth),
                height: rect.height * Float(height) / Float(bufferHeight),
                rotation: Float(Double(rect.rotation) - quarterTurn))
        case .left:
            return NormalizedRect(
                xCenter: 1 - rect.yCenter, yCenter: rect.xCenter,
                width: rect.width * Float(width) / Float(bufferWidth),
                height: rect.height * Float(height) / Float(bufferHeight),
                rotation: Float(Double(rect.rotation) + quarterTurn))
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored:
            _ = try orientation.rotationDegrees()
            return rect
        }
    }

    /// Maps a point normalised to the stored pixels to the upright image's normalised coordinates
    /// (for results computed on the stored pixels). Mirrored orientations are returned unchanged.
    package func uprightPoint(fromBufferX x: Float, y: Float) -> (x: Float, y: Float) {
        switch orientation {
        case .down: return (1 - x, 1 - y)
        case .right: return (1 - y, x)
        case .left: return (y, 1 - x)
        case .up, .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: return (x, y)
        }
    }

    /// Maps a point in the upright image's normalised coordinates to the stored pixels' ones.
    package func bufferPoint(fromUprightX x: Float, y: Float) -> (x: Float, y: Float) {
        switch orientation {
        case .down: return (1 - x, 1 - y)
        case .right: return (y, 1 - x)
        case .left: return (1 - y, x)
        case .up, .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: return (x, y)
        }
    }
}
