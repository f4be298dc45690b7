import TradeportCore
import TradeportXLSX

/// Sections 3.1 and 4.1, and the reference sections after them.
///
/// 3.1 (2020: 3) prints a row per security and place of custody: the opening position, what came
/// in and went out, the closing position. Its balances are what the deals read are checked
/// against; what it moved without a deal may become a movement (`+Movements`), decided at the end. 4.1 describes the securities: the ISIN of a code, the code
/// of a name (payouts name their security by name), a bond's nominal.
extension TinkoffReportParser {
    /// Whether `row` is the table's header — its first row, or one with the same texts repeating it
    /// on a later page, where the columns may have moved (each then maps its own).
    private func isHeader(_ row: XLSXRow) -> Bool {
        guard let header = referenceHeader else {
            referenceHeader = row.cells.map { $0.kind == .string ? HeaderText.fold($0.bytes) : [] }
            return true
        }
        return header.count == row.cells.count
            && zip(row.cells, header).allSatisfy { $0.kind == .string ? HeaderText.matches($0.bytes, $1) : $1.isEmpty }
    }

    func positionRow(_ row: XLSXRow) throws {
        if isHeader(row) {
            positionMap = TableMap(fields: PositionColumn.table, header: row)
            return
        }
        if try rejectOperation(row, place: "section 3.1 (positions)") { return }
        if let map = positionMap, map.missing.isEmpty {
            var cells = TableRow<PositionColumn>()
            cells.read(row, map)
            var check = TinkoffValues(codes: codes, dateSystem: dateSystem)
            let code = check.text(cells[.code], "asset", required: true)?.trimmedOfSpaces
            let isin = check.text(cells[.isin], "isin", required: false)?.trimmedOfSpaces
            let opening = check.number(cells[.opening], "opening", .nonNegative, required: true)
            let credited = check.number(cells[.credited], "credited", .nonNegative, required: false) ?? .zero
            let debited = check.number(cells[.debited], "debited", .nonNegative, required: false) ?? .zero
            let closing = check.number(cells[.closing], "closing", .nonNegative, required: true)
            if let code, let opening, let closing, check.errors.isEmpty {
                let name = check.text(cells[.name], "name", required: false)?.trimmedOfSpaces
                noteSecurity(code: code, isin: isin, name: name)
                // Under its code: what the deals' assets are (a deal naming it by ISIN takes this code).
                if let asset = AssetCode(code) {
                    balances.append(StatedBalance(asset: asset, kind: .position, opening: opening, closing: closing, source: at(row)))
                    // Decided at the end, once the deals and payouts are known (`+Movements`).
                    let position = HeldPosition(
                        row: row.number, code: code, asset: asset, isin: isin.flatMap { $0.isEmpty ? nil : $0 },
                        name: name.flatMap { $0.isEmpty ? nil : $0 }, credited: credited, debited: debited,
                        rawEnd: keepRaw(row))
                    positionsSeen.append(position)
                    heldPositions.append(position)
                    HeldEntry(kind: .position).append(to: heldEntries)
                    return
                }
            } else {
                return try reject(
                    row,
                    check.errors + [
                        FieldError(
                            column: nil, field: nil, message: "a position of section 3.1 that cannot be read: the operations cannot be checked against it")
                    ])
            }
        }
        try skipReference(row, "a position (section 3.1), not an operation: the operations are checked against it", place: "section 3.1 (positions)")
    }

    func securityRow(_ row: XLSXRow) throws {
        if isHeader(row) {
            securitiesMap = TableMap(fields: SecurityColumn.table, header: row)
            return
        }
        if let map = securitiesMap, map.missing.isEmpty {
            var cells = TableRow<SecurityColumn>()
            cells.read(row, map)
            var check = TinkoffValues(codes: codes, dateSystem: dateSystem)
            if let code = check.text(cells[.code], "code", required: false)?.trimmedOfSpaces, !code.isEmpty {
                noteSecurity(
                    code: code, isin: check.text(cells[.isin], "isin", required: false)?.trimmedOfSpaces,
                    name: check.text(cells[.name], "name", required: false)?.trimmedOfSpaces)
                if let nominal = check.number(cells[.nominal], "nominal", .nonNegative, required: false), nominal.isPositive { nominalByCode[code] = nominal }
            }
        }
        try skipReference(row, "a security's description (section 4.1), not an operation", place: "section 4.1 (securities)")
    }

    /// What 3.1 and 4.1 say of a security: its ISIN, and the ticker of its ISIN and of its name
    /// (deals made off exchange name the security by its ISIN, payouts by its name).
    private func noteSecurity(code: String, isin: String?, name: String?) {
        if let isin, !isin.isEmpty {
            isinByCode[code] = isin
            if code != isin { tickerByIsin[isin] = code }
        }
        if let name, !name.isEmpty {
            codeBySecurityName[name] = code
            if !ISIN.looksLike(code) { tickerByName[name] = code }
        }
    }

    func referenceRow(_ row: XLSXRow, section number: String) throws {
        // The first row of a reference table is its header; a row with the same texts repeats it
        // on a later page.
        if isHeader(row) { return }
        try skipReference(row, referenceSkipReason, place: "section \(number)")
    }
}
