
export const Upload = fastFirst(fast0, validate20);
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://agentproto.dev/schemas/multipart/1/Upload.schema.json","type":"object","required":["file"],"properties":{"file":{"type":"string","format":"binary"},"folder":{"type":"string"}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/multipart/1/Upload.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.file === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "file"},message:"must have required property '"+"file"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.file !== undefined){
if(!(typeof data.file === "string")){
const err1 = {instancePath:instancePath+"/file",schemaPath:"#/properties/file/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.folder !== undefined){
if(typeof data.folder !== "string"){
const err2 = {instancePath:instancePath+"/folder",schemaPath:"#/properties/folder/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}


function fastFirst(fast, full){
const validate = function(data, context){
if(fast(data)){
validate.errors = null;
return true;
}
const valid = full(data, context);
validate.errors = full.errors;
return valid;
};
validate.fast = fast;
validate.full = full;
return validate;
}
function fast0(data){
if(!((data && typeof data == "object" && !Array.isArray(data)))) return false;
{const v1 = data["file"];
if(v1 === undefined) return false;
if(!(typeof v1 == "string")) return false;
}
{const v2 = data["folder"];
if(v2 !== undefined){
if(!(typeof v2 == "string")) return false;
}}
return true;
}
