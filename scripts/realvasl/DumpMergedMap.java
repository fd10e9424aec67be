// Local-only check (never run in CI): VASL's LOS map of several boards, cropped and reversed, hex by hex.
//
// Repeats, with VASL's own classes, the steps VASL.build.module.ASLMap takes when a saved game is loaded (the board
// picker's "nearest full row" does not survive a save, so its crops are VASL's "Normal" ones): the map's grid from
// the boards' total size in pixels as VASSAL lays them out (a board right of those before it in its row, below those
// above it in its column, each as wide and high as its crop), then for each board BoardArchive.getLOSData, Map.crop
// (as VASLBoard.cropLOSData calls it), Map.flip when reversed, and Map.insertMap at Map.gridToHex of the board's
// top-left corner one pixel down. Prints
//   map <columns> <rows> <grid width> <grid height>
//   board <name> <image width>x<image height> at <x>,<y> size <w>x<h> place <col>,<row>   (place: gridToHex's hex)
//   hex <col> <row> <name> <board that wrote it> <board under its centre or -> <terrain> <base height>
// or "error <board> <what VASL threw or refused>" where VASL turns its LOS off. Compare with
// asl_vassal_bridge.vasl.crop (scripts/compare_vasl_crops.py). Nothing of VASL or VASSAL is committed; build as
// DumpBoardTerrain.java says:
//   java -cp "$CP:build/dumper" DumpMergedMap SharedBoardMetadata.xml BOARDS_DIR 01@0,0:0,0,900,-1 r22@1,0 …
// (a board: [r]name@column,row[:x,y,width,height]).
import VASL.LOS.Map.Hex;
import VASL.LOS.Map.Map;
import VASL.build.module.map.boardArchive.BoardArchive;
import VASL.build.module.map.boardArchive.SharedBoardMetadata;

import java.awt.Point;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;

public class DumpMergedMap {

    static final class Spec {
        String name;
        int col, row;
        boolean reversed;
        Rectangle crop = new Rectangle(0, 0, -1, -1);
        BoardArchive arc;
        int imageWidth, imageHeight;
        Rectangle bounds;

        boolean cropped() {
            return !(crop.x == 0 && crop.y == 0 && crop.width == -1 && crop.height == -1);
        }
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        SharedBoardMetadata shared = new SharedBoardMetadata();
        try (InputStream in = new FileInputStream(args[0])) {
            shared.parseSharedBoardMetadataFile(in);
        }
        String dir = args[1];
        List<Spec> specs = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            Spec s = new Spec();
            String a = args[i];
            String[] parts = a.split(":");
            String[] at = parts[0].split("@");
            s.name = at[0];
            if (s.name.length() > 1 && s.name.startsWith("r")) {
                s.reversed = true;
                s.name = s.name.substring(1);
            }
            String[] cr = at[1].split(",");
            s.col = Integer.parseInt(cr[0]);
            s.row = Integer.parseInt(cr[1]);
            if (parts.length > 1) {
                String[] c = parts[1].split(",");
                s.crop = new Rectangle(Integer.parseInt(c[0]), Integer.parseInt(c[1]), Integer.parseInt(c[2]),
                        Integer.parseInt(c[3]));
            }
            s.arc = new BoardArchive("bd" + s.name, dir, shared);
            try (ZipFile z = new ZipFile(new java.io.File(dir, "bd" + s.name))) {
                BufferedImage im = javax.imageio.ImageIO.read(z.getInputStream(z.getEntry(s.arc.getBoardImageFileName())));
                s.imageWidth = im.getWidth();
                s.imageHeight = im.getHeight();
            }
            specs.add(s);
        }
        // VASSAL's layout (Map.setBoardBoundaries) with ASLBoard's size: the crop's where it has one
        for (Spec s : specs) {
            int w = s.crop.width > 0 ? s.crop.width : s.imageWidth;
            int h = s.crop.height > 0 ? s.crop.height : s.imageHeight;
            s.bounds = new Rectangle(0, 0, w, h);
        }
        for (Spec s : specs) {
            int x = 0, y = 0;
            for (Spec o : specs) {
                if (o.row == s.row && o.col < s.col) x += o.bounds.width;
                if (o.col == s.col && o.row < s.row) y += o.bounds.height;
            }
            s.bounds.setLocation(x, y);
        }
        Rectangle boundary = new Rectangle(0, 0);
        for (Spec s : specs) boundary.add(s.bounds);
        Spec b = specs.get(0);
        double hexWidth = specs.get(specs.size() - 1).arc.getHexWidth();
        double hexHeight = specs.get(specs.size() - 1).arc.getHexHeight();
        String passgridconfig = "Normal";
        if (b.arc.getHexGridConfig() != null) passgridconfig = "TopLeftHalfHeight";
        boolean isCropping = b.cropped();
        if (!(b.arc.getA1CenterX() == 0) && !(b.arc.getA1CenterX() == -999)) passgridconfig += "Offset";
        Map vmap = new Map(hexWidth, hexHeight, (int) Math.round(boundary.width / b.arc.getHexWidth()) + 1,
                (int) Math.round(boundary.height / b.arc.getHexHeight()), b.arc.getA1CenterX(), b.arc.getA1CenterY(),
                boundary.width, boundary.height, shared.getTerrainTypes(), passgridconfig, isCropping);
        out.println("map\t" + vmap.getWidth() + "\t" + vmap.getHeight() + "\t" + boundary.width + "\t" + boundary.height);
        String[][] owner = new String[vmap.getWidth()][vmap.getHeight() + 2];
        for (Spec s : specs) {
            String croptype = "Normal";
            boolean cropping = false;
            double gridadj = 0;
            double a1x = s.arc.getA1CenterX();
            if (s.cropped()) {
                cropping = true;
                gridadj = a1x != -901 ? a1x : 0;
            }
            if (!(a1x == 0) && !(a1x == -999) && !(a1x == -901)) croptype += "Offset";
            try {
                Map los = s.arc.getLOSData(shared.getTerrainTypes(), croptype, cropping, gridadj);
                if (s.cropped()) {
                    int offset = (!(a1x == 0) && !(a1x == -999) && !(a1x == -901)) ? (int) a1x : 0;
                    Rectangle r = new Rectangle(s.crop);
                    if (r.width == -1) r.width = s.imageWidth;
                    if (r.height == -1) r.height = s.imageHeight;
                    los = los.crop(new Point(r.x, r.y), new Point(r.x + r.width, r.y + r.height), offset, "");
                }
                if (s.reversed) los.flip();
                int w = s.arc.getBoardWidth(), h = s.arc.getBoardHeight();
                Hex ul = null;
                if ((w == 33 && h == 10) || (w == 17 && h == 20) || (w == 15 && h == 5)) {
                    ul = vmap.gridToHex(s.bounds.x, s.bounds.y + 1);
                    out.println("board\t" + s.name + "\t" + s.imageWidth + "x" + s.imageHeight + "\tat\t" + s.bounds.x
                            + "," + s.bounds.y + "\tsize\t" + s.bounds.width + "x" + s.bounds.height + "\tplace\t"
                            + (ul == null ? "-" : ul.getColumnNumber() + "," + ul.getRowNumber()));
                    if (!vmap.insertMap(los, ul)) {
                        out.println("error\t" + s.name + "\tinsertMap refused the board");
                        break;
                    }
                } else {
                    out.println("board\t" + s.name + "\t" + s.imageWidth + "x" + s.imageHeight + "\tat\t" + s.bounds.x
                            + "," + s.bounds.y + "\tsize\t" + s.bounds.width + "x" + s.bounds.height + "\tplace\t0,0");
                    vmap.insertOneMap(los);
                }
                int hc = ul == null ? 0 : ul.getColumnNumber(), hr = ul == null ? 0 : ul.getRowNumber();
                Hex[][] g = los.getHexGrid();
                Hex[][] m = vmap.getHexGrid();
                for (int x = 0; x < g.length && x < m.length; x++) {
                    for (int y = 0; y < g[x].length && y < m[x].length; y++) {
                        owner[x + hc][y + hr] = s.name;
                    }
                }
            } catch (Throwable e) {
                out.println("error\t" + s.name + "\t" + e);
                break;
            }
        }
        Hex[][] m = vmap.getHexGrid();
        for (int c = 0; c < m.length; c++) {
            for (int r = 0; r < m[c].length; r++) {
                Hex h = m[c][r];
                Point p = h.getHexCenter();
                String under = "-";
                for (Spec s : specs) {
                    if (s.bounds.contains(p)) {
                        under = s.name;
                        break;
                    }
                }
                String t = h.getCenterLocation().getTerrain() == null ? "-" : h.getCenterLocation().getTerrain().getName();
                out.println("hex\t" + c + "\t" + r + "\t" + h.getName() + "\t" + (owner[c][r] == null ? "-" : owner[c][r])
                        + "\t" + under + "\t" + t + "\t" + h.getBaseHeight());
            }
        }
        out.flush();
    }
}
