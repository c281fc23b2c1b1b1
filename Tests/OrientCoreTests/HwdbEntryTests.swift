import Testing
@testable import OrientCore

/// The hwdb entry `calibrate` prints for a model: keyed as udev's 60-sensor.rules looks the
/// accelerometer up (its bus device's modalias, the DMI modalias), in the format upstream takes.
struct HwdbEntryTests {
    static let matrix = MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")!
    static let dmi = "dmi:bvnLENOVO:bvrDKCN51WW:bd06/29/2021:br1.51:efr1.51:svnLENOVO:pn81SS:pvrIdeaPadFlex3CHR11IGL05:rvnLENOVO:rnLNVNB161216:rvrNODPK:cvnLENOVO:ct31:cvrIdeaPadFlex3CHR11IGL05:skuLENOVO_MT_81SS_BU_idea_FM_IdeaPad Flex 3 CHR 11IGL05:\n"

    @Test func anACPIDeviceIsMatchedByItsFirstIDAndTheMachinesVendorAndProduct() throws {
        let entry = try #require(HwdbEntry(busModalias: "acpi:BOSC0200:BOSC0200:\n", dmiModalias: Self.dmi,
                                           vendor: "LENOVO\n", product: "81SS\n", matrix: Self.matrix))
        #expect(entry.text == """
            # LENOVO 81SS
            sensor:modalias:acpi:BOSC0200*:dmi:*:svnLENOVO:pn81SS:*
             ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1
            """)
    }

    @Test func theRulesLabelIsTheDevicesLabelElseAChromeOSECAccelerometersPlace() {
        #expect(HwdbEntry.ruleLabel(label: "accel-display", name: "bmc150_accel", location: nil) == "accel-display")
        #expect(HwdbEntry.ruleLabel(label: nil, name: "cros-ec-accel", location: "base") == "accel-base")
        #expect(HwdbEntry.ruleLabel(label: nil, name: "cros-ec-accel-legacy", location: "lid") == "accel-display")
        #expect(HwdbEntry.ruleLabel(label: nil, name: "bmc150_accel", location: "lid") == nil, "only the EC's by place")
        #expect(HwdbEntry.ruleLabel(label: nil, name: "cros-ec-accel", location: nil) == nil)
    }

    @Test func aHIDSensorHubOnThePlatformBusKeepsItsWholeModalias() throws {
        let entry = try #require(HwdbEntry(busModalias: "platform:HID-SENSOR-200073", dmiModalias: Self.dmi,
                                           vendor: nil, product: nil, matrix: Self.matrix))
        #expect(entry.match == "sensor:modalias:platform:HID-SENSOR-200073*:dmi:*:svnLENOVO:pn81SS:*")
        #expect(entry.comment == "LENOVO 81SS", "named from the DMI fields when the names cannot be read")
    }

    @Test func aDeviceTreeSensorIsMatchedAsUdevWritesItsModalias() throws {
        let entry = try #require(HwdbEntry(busModalias: "of:NaccelerometerT(null)Csilan,sc7a20\n", dmiModalias: Self.dmi,
                                           vendor: nil, product: nil, matrix: Self.matrix))
        #expect(entry.match == "sensor:modalias:of:NaccelerometerT_null_Csilan,sc7a20*:dmi:*:svnLENOVO:pn81SS:*")
        let labelled = try #require(HwdbEntry(busModalias: "i2c:bmc150_accel", dmiModalias: Self.dmi, label: "accel-display",
                                              vendor: nil, product: nil, matrix: Self.matrix))
        #expect(labelled.match == "sensor:accel-display:modalias:i2c:bmc150_accel*:dmi:*:svnLENOVO:pn81SS:*")
    }

    @Test func withoutABusModaliasOrAVendorAndProductThereIsNoEntry() {
        #expect(HwdbEntry(busModalias: "", dmiModalias: Self.dmi, vendor: nil, product: nil, matrix: Self.matrix) == nil)
        #expect(HwdbEntry(busModalias: "acpi:BOSC0200:", dmiModalias: "dmi:bvnX:", vendor: nil, product: nil, matrix: Self.matrix) == nil)
        #expect(HwdbEntry(busModalias: "acpi:BOSC0200:", dmiModalias: "nonsense", vendor: nil, product: nil, matrix: Self.matrix) == nil)
    }
}

/// `calibrate --hwdb`'s edit of the local hwdb file.
struct HwdbMergeTests {
    static let entry = HwdbEntry(busModalias: "acpi:BOSC0200:BOSC0200:", dmiModalias: HwdbEntryTests.dmi, vendor: "LENOVO",
                                 product: "81SS", matrix: HwdbEntryTests.matrix)!

    @Test func anOlderRecordForTheSameMatchIsReplacedAndTheRestKept() {
        let text = """
            # mine
            sensor:modalias:acpi:KIOX000A*:dmi:*:svnOTHER:pnX:*
             ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1

            # LENOVO 81SS (an older guess)
            sensor:modalias:acpi:BOSC0200*:dmi:*:svnLENOVO:pn81SS:*
             ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, -1, 0; 0, 0, 1

            """
        #expect(Self.entry.merged(into: text) == """
            # mine
            sensor:modalias:acpi:KIOX000A*:dmi:*:svnOTHER:pnX:*
             ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1

            # LENOVO 81SS
            sensor:modalias:acpi:BOSC0200*:dmi:*:svnLENOVO:pn81SS:*
             ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1

            """)
        #expect(Self.entry.merged(into: "") == Self.entry.text + "\n")
    }

    @Test func aRecordSharedWithAnotherModelLosesOnlyOurMatch() {
        let text = """
            # two models, one matrix
            sensor:modalias:acpi:BOSC0200*:dmi:*:svnLENOVO:pn81SS:*
            sensor:modalias:acpi:BOSC0200*:dmi:*:svnLENOVO:pn81ST:*
             ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, -1, 0; 0, 0, 1

            """
        let merged = Self.entry.merged(into: text)
        #expect(merged.hasPrefix("""
            # two models, one matrix
            sensor:modalias:acpi:BOSC0200*:dmi:*:svnLENOVO:pn81ST:*
             ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, -1, 0; 0, 0, 1

            # LENOVO 81SS
            """), "\(merged)")
    }
}
