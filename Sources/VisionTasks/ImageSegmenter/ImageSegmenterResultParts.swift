extension ImageSegmenterResult: DescribedResult {
    /// The confidence masks tinted over the picture; without them, the category mask's labelled pixels
    /// (every pixel not 255) tinted.
    public var overlayParts: [OverlayPart] {
        if let confidenceMasks, !confidenceMasks.isEmpty { return [.masks(confidenceMasks)] }
        guard let categoryMask,
            let labelled = try? Mask(
                width: categoryMask.width, height: categoryMask.height,
                float32Data: categoryMask.uint8Data.map { $0 == 255 ? 0 : 1 })
        else { return [] }
        return [.masks([labelled])]
    }

    /// label, quality score, and the fraction of the image each label covers: the mean of its confidence
    /// mask, and the fraction of the category mask's pixels holding it.
    package static var csvColumns: [String] { ["label", "quality_score", "mean_confidence", "category_fraction"] }

    /// One row per label.
    package var csvObjects: [(id: Int?, cells: [String])] {
        let labels = max(qualityScores.count, confidenceMasks?.count ?? 0)
        let categoryCounts = categoryMask.map { mask in
            mask.uint8Data.reduce(into: [Int](repeating: 0, count: 256)) { $0[Int($1)] += 1 }
        }
        return (0..<labels).map { k in
            let mean = confidenceMasks.flatMap { k < $0.count ? $0[k] : nil }.map {
                $0.float32Data.reduce(0, +) / Float($0.float32Data.count)
            }
            // A one-label model's category mask holds 0 for its label and 255 for background.
            let fraction = categoryCounts.flatMap { counts in
                categoryMask.map { Double(counts[min(k, 255)]) / Double($0.width * $0.height) }
            }
            return (
                nil,
                [
                    String(k), CSVCells.number(k < qualityScores.count ? qualityScores[k] : nil),
                    CSVCells.number(mean), CSVCells.number(fraction),
                ]
            )
        }
    }
}
