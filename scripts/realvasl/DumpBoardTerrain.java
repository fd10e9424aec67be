// Local-only check (never run in CI): print VASL's own LOS model of board archives, hex by hex.
//
// Loads each archive through VASL's classes exactly as VASL.build.module.ASLMap does for one
// uncropped, unreversed board (BoardArchive.getLOSData with crop type "Normal", plus "Offset"
// when A1CenterX is not 0, -999 or -901; gridadj 0) and prints, per hex of the resulting
// VASL.LOS.Map.Map:
//   board <file> <width>x<height> | board <file> NONE <reason>
//   <name> TAB <column> TAB <row> TAB <centre terrain> TAB <base height> TAB <depression terrain or -> TAB <up/down>
//     TAB <stairway 0/1>
// <up/down> lists the Locations above (+) and below (-) the centre with their levels (upper building
// levels, rooftops, cellars, a single-hex bridge's extra Location).
//
// With --ssr-sets FILE (one SSR set a line: rule names separated by commas or tabs, as VASL's board
// picker stores a board's terrain changes; an empty line is the board as printed) every board is
// dumped once per set: its LOS data read again, then VASL's own VASLBoard.applyColorSSRules applied
// (as ASLMap does after getLOSData, before crop and flip), with " TAB ssr=<set>" after the board line;
// a set VASL refuses ("Unsupported scenario-specific rule …", an invalid rule value) prints
//   board <file> NONE <exception> TAB ssr=<set>.  Compare with
// scripts/compare_vasl_terrain.py.  Nothing of VASL or VASSAL is committed: this calls their classes,
// built locally as ../shared/docs/real-vassal-and-vasl.md describes ($RV below).
//
// Build and run from a scratch folder (VASSAL's logger writes CONF_DIR_IS_UNDEFINED/ into the current one);
// see docs/vasl-readers.md, "Checking against VASL's own model":
//   CP=$RV/Vengine-3.7.26.jar:$(cat $RV/cp.txt):/usr/share/java/jdom2.jar:$RV/vasl/classes
//   javac -cp "$CP" -d build/dumper scripts/realvasl/DumpBoardTerrain.java
//   java -cp "$CP:build/dumper" DumpBoardTerrain SharedBoardMetadata.xml [--keep-duplicate-codes] [newer-types.xml] \
//        [--ssr-sets sets.txt] bdDir bd01 bd12b … > vasl.tsv
import VASL.LOS.Map.Hex;
import VASL.LOS.Map.Location;
import VASL.LOS.Map.Map;
import VASL.build.module.map.boardArchive.BoardArchive;
import VASL.build.module.map.boardArchive.SharedBoardMetadata;
import VASL.build.module.map.boardPicker.VASLBoard;

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.input.SAXBuilder;

public class DumpBoardTerrain {

    /** SharedBoardMetadata that also reads a bare {@code <terrainTypes>} file (the 6.7 additions). */
    static final class Shared extends SharedBoardMetadata {
        void addTerrainTypes(File f) throws Exception {
            Document doc = new SAXBuilder().build(f);
            Element root = doc.getRootElement();
            parseTerrainTypes(root.getName().equals("terrainTypes") ? root : root.getChild("terrainTypes"));
        }

        /**
         * VASL keys terrain types by name, so of two types sharing a name (2020: "Scrub", codes 100 and 121)
         * the earlier code has no Terrain and any board using it fails to load. With --keep-duplicate-codes
         * the shadowed codes are registered again under "name#code" (printed without the suffix).
         */
        void keepDuplicateCodes(File f) throws Exception {
            Element types = new SAXBuilder().build(f).getRootElement().getChild("terrainTypes");
            Element extra = new Element("terrainTypes");
            for (Element e : types.getChildren("terrainType")) {
                VASL.LOS.Map.Terrain t = getTerrainTypes().get(e.getAttributeValue("name"));
                int code = Integer.parseInt(e.getAttributeValue("typeCode"));
                if (t != null && t.getType() != code) {
                    Element copy = e.clone();
                    copy.setAttribute("name", e.getAttributeValue("name") + "#" + code);
                    extra.addContent(copy);
                }
            }
            parseTerrainTypes(extra);
        }
    }

    /**
     * A VASLBoard holding only what {@code applyColorSSRules} reads: the board archive (not a legacy board),
     * the board's name (VASL special-cases RBv2) and the SSR tokens, tab-separated as the board picker keeps them.
     */
    static final class SsrBoard extends VASLBoard {
        SsrBoard(BoardArchive arc, String ssr) {
            VASLBoardArchive = arc;
            terrainChanges = ssr;
            name = arc.getBoardName();
        }
    }

    /** Why getLOSData returned null: its steps again, with the exception it swallows. */
    static String why(BoardArchive arc, File f, Shared shared, String crop) {
        try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(f)) {
            java.util.zip.ZipEntry e = z.getEntry("LOSData");
            if (e == null) {
                return "no LOSData in the archive";
            }
            java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.BufferedInputStream(
                    new java.util.zip.GZIPInputStream(z.getInputStream(e))));
            int w = in.readInt(), h = in.readInt(), gw = in.readInt(), gh = in.readInt();
            Map map = arc.isGEO() ? new Map(w, h, shared.getTerrainTypes(), crop, false)
                    : new Map(arc.getHexWidth(), arc.getHexHeight(), w, h, arc.getA1CenterX(), arc.getA1CenterY(),
                              gw, gh, shared.getTerrainTypes(), crop, false);
            for (int x = 0; x < gw; x++) {
                for (int y = 0; y < gh; y++) {
                    map.setGridElevation(in.readByte(), x, y);
                    map.setGridTerrainCode(in.readByte() & 0xff, x, y);
                }
            }
            for (int c = 0; c < map.getWidth(); c++) {
                for (int r = 0; r < map.getHeight() + (c % 2); r++) {
                    map.getHex(c, r).setStairway(in.readByte() == 1);
                }
            }
            map.resetHexTerrain(0);
            return "no exception on a second reading";
        } catch (Throwable t) {
            StackTraceElement[] st = t.getStackTrace();
            return t + (st.length > 0 ? " at " + st[0] : "");
        }
    }

    static String name(VASL.LOS.Map.Terrain t) {
        if (t == null) {
            return "null";  // e.g. the Location under a single-hex bridge after an SSR removed its depression
        }
        String n = t.getName();
        int hash = n.indexOf('#');
        return hash < 0 ? n : n.substring(0, hash);
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Shared shared = new Shared();
        try (InputStream in = new FileInputStream(args[0])) {
            shared.parseSharedBoardMetadataFile(in);
        }
        int i = 1;
        if (args[i].equals("--keep-duplicate-codes")) {
            shared.keepDuplicateCodes(new File(args[0]));
            i++;
        }
        if (args[i].endsWith(".xml")) {
            shared.addTerrainTypes(new File(args[i]));
            i++;
        }
        List<String> sets = new ArrayList<>();
        sets.add("");
        if (args[i].equals("--ssr-sets")) {
            sets = new ArrayList<>();
            for (String line : Files.readAllLines(new File(args[i + 1]).toPath(), StandardCharsets.UTF_8)) {
                sets.add(String.join("\t", line.trim().split("[,\t]+")));
            }
            i += 2;
        }
        String dir = args[i++];
        for (; i < args.length; i++) {
            for (String ssr : sets) {
                dump(out, shared, dir, args[i], ssr);
            }
        }
        out.flush();
    }

    /** One board, with one SSR set applied (none when {@code ssr} is empty). */
    static void dump(PrintStream out, Shared shared, String dir, String file, String ssr) {
        String tag = ssr.isEmpty() ? "" : "\tssr=" + ssr.replace('\t', ',');
        try {
            BoardArchive arc = new BoardArchive(file, dir, shared);
            if (arc.isLegacyBoard()) {
                out.println("board\t" + file + "\tNONE\tno BoardMetadata.xml (legacy board)" + tag);
                return;
            }
            double x0 = arc.getA1CenterX();
            String crop = "Normal" + ((x0 != 0 && x0 != -999 && x0 != -901) ? "Offset" : "");
            Map map = arc.getLOSData(shared.getTerrainTypes(), crop, false, 0);
            if (map == null) {
                out.println("board\t" + file + "\tNONE\tVASL built no LOS map (getLOSData returned null: "
                        + why(arc, new File(dir, file), shared, crop) + ")" + tag);
                return;
            }
            Hex[][] grid = map.getHexGrid();
            if (grid == null) {
                out.println("board\t" + file + "\tNONE\tVASL built no hex grid" + tag);
                return;
            }
            if (!ssr.isEmpty()) {
                try {
                    new SsrBoard(arc, ssr).applyColorSSRules(map, shared.getLOSSSRules(), 0);
                } catch (Throwable e) {
                    out.println("board\t" + file + "\tNONE\t" + e + tag);
                    return;
                }
            }
            out.println("board\t" + file + "\t" + map.getWidth() + "x" + map.getHeight() + "\t" + crop
                    + "\talt=" + arc.isAltHexGrain() + tag);
            for (int c = 0; c < grid.length; c++) {
                for (int r = 0; r < grid[c].length; r++) {
                    Hex h = grid[c][r];
                    Location l = h.getCenterLocation();
                    List<String> extra = new ArrayList<>();
                    for (Location u = l.getUpLocation(); u != null; u = u.getUpLocation()) {
                        extra.add("+" + name(u.getTerrain()) + "@" + u.getBaseHeight());
                    }
                    for (Location d = l.getDownLocation(); d != null; d = d.getDownLocation()) {
                        extra.add("-" + name(d.getTerrain()) + "@" + d.getBaseHeight());
                    }
                    String dep = l.getDepressionTerrain() == null ? "-" : name(l.getDepressionTerrain());
                    out.println(h.getName() + "\t" + c + "\t" + r + "\t" + name(l.getTerrain()) + "\t"
                            + h.getBaseHeight() + "\t" + dep + "\t" + String.join(",", extra) + "\t"
                            + (h.hasStairway() ? 1 : 0));
                }
            }
        } catch (Throwable e) {
            out.println("board\t" + file + "\tNONE\t" + e.getClass().getSimpleName() + ": " + e.getMessage() + tag);
        }
    }
}
